// Ten million steps of a loop whose value is summed over two devices, then
// updated elementwise: a' = psum(a) - a + 1 hands each device the other's
// value plus one. After an even number of steps device d holds d + 1 + n.
func.func @main() -> tensor<2x3xi64> {
  %init = arith.constant dense<[[1, 1, 1], [2, 2, 2]]> : tensor<2x3xi64>
  %r = spmd.pmap "i" (%x = %init : tensor<2x3xi64>) -> tensor<2x3xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 10000000 : index
    %one = arith.constant dense<1> : tensor<3xi64>
    %z = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<3xi64> {
      %s = spmd.psum %a over "i" : tensor<3xi64>
      %d = arith.subi %s, %a : tensor<3xi64>
      %e = arith.addi %d, %one : tensor<3xi64>
      scf.yield %e : tensor<3xi64>
    }
    spmd.yield %z : tensor<3xi64>
  }
  return %r : tensor<2x3xi64>
}
