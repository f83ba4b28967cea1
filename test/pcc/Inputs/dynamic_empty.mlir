// A tensor of n ones, made at run time, and its sum.
func.func @main(%n: tensor<i64>) -> tensor<f32> {
  %k = tensor.extract %n[] : tensor<i64>
  %size = arith.index_cast %k : i64 to index
  %e = tensor.empty(%size) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%ones : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %c = arith.addf %a, %b : f32
      linalg.yield %c : f32
    }
  return %sum : tensor<f32>
}
