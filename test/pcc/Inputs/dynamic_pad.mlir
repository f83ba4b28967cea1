// Four values padded at the front by an amount read at run time; the first
// value of the result.
func.func @main(%t: tensor<4xf32>, %n: tensor<i64>) -> f32 {
  %k = tensor.extract %n[] : tensor<i64>
  %a = arith.index_cast %k : i64 to index
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %t low[%a] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %p[%c0] : tensor<?xf32>
  return %v : f32
}
