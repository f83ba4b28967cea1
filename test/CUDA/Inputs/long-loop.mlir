// Input of ../long-loop.test: pmax in a loop of 60000 steps over two devices.
func.func @main() -> tensor<2x3xi64> {
  %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r = spmd.pmap "i" (%x = %d : tensor<2x3xi64>) -> tensor<2x3xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 60000 : index
    %z = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<3xi64> {
      %s = spmd.pmax %a over "i" : tensor<3xi64>
      scf.yield %s : tensor<3xi64>
    }
    spmd.yield %z : tensor<3xi64>
  }
  return %r : tensor<2x3xi64>
}
