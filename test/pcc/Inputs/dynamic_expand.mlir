// Six values split into rows of two, the number of rows read at run time;
// the last row's second value.
func.func @main(%t: tensor<6xf32>, %n: tensor<i64>) -> f32 {
  %k = tensor.extract %n[] : tensor<i64>
  %a = arith.index_cast %k : i64 to index
  %d = tensor.cast %t : tensor<6xf32> to tensor<?xf32>
  %e = tensor.expand_shape %d [[0, 1]] output_shape [%a, 2] : tensor<?xf32> into tensor<?x2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %e, %c0 : tensor<?x2xf32>
  %last = arith.subi %dim, %c1 : index
  %v = tensor.extract %e[%last, %c1] : tensor<?x2xf32>
  return %v : f32
}
