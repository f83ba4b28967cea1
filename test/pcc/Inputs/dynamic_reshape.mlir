// Six values reshaped to a shape given at run time; the value at [1, 1].
func.func @main(%t: tensor<6xf32>, %shape: tensor<2xi64>) -> f32 {
  %r = tensor.reshape %t(%shape) : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %v = tensor.extract %r[%c1, %c1] : tensor<?x?xf32>
  return %v : f32
}
