// A dynamic index from an argument, outside the tensor for some values.
func.func @main(%t: tensor<4xf32>, %i: tensor<i64>) -> f32 {
  %k = tensor.extract %i[] : tensor<i64>
  %j = arith.index_cast %k : i64 to index
  %v = tensor.extract %t[%j] : tensor<4xf32>
  return %v : f32
}
