// An op of an allowed dialect that pcc cannot compile yet.
func.func @main() -> tensor<2x1xf32> {
  %src = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %idx = arith.constant dense<[[0], [2]]> : tensor<2x1xindex>
  %g = tensor.gather %src[%idx] gather_dims([0]) : (tensor<3xf32>, tensor<2x1xindex>) -> tensor<2x1xf32>
  return %g : tensor<2x1xf32>
}
