// Runs (practically) forever: 4 devices psum in a loop of 10^11 steps, for the
// interrupt test.
func.func @main() -> tensor<4xi64> {
  %r = spmd.pmap "i" size 4 () -> (tensor<4xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 100000000000 : index
    %z = arith.constant 0 : i64
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
      %one = arith.constant 1 : i64
      %t = spmd.psum %one over "i" : i64
      %a = arith.addi %acc, %t : i64
      scf.yield %a : i64
    }
    spmd.yield %s : i64
  }
  return %r : tensor<4xi64>
}
