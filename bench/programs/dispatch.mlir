// bench: the cost of running a pmap: four devices, one element each.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<4xf32>) -> (tensor<4xf32>) {
    %two = arith.constant dense<2.0> : tensor<f32>
    %y = arith.mulf %a, %two : tensor<f32>
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<4xf32>
}
