// Two devices that take pmax of each other's value for 200 million steps:
// long enough to be killed in the middle.
func.func @main() -> tensor<2xf32> {
  %init = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = spmd.pmap "i" (%x = %init : tensor<2xf32>) -> (tensor<2xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 200000000 : index
    %out = scf.for %k = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<f32>) {
      %s = spmd.pmax %v over "i" : tensor<f32>
      scf.yield %s : tensor<f32>
    }
    spmd.yield %out : tensor<f32>
  }
  return %r : tensor<2xf32>
}
