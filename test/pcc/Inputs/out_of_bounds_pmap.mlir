// Dynamic indexing on device threads: tensor.insert at %j, then a slice of
// two elements from %j (in bounds for j = 0..2 only).
func.func @main(%t: tensor<2x4xf32>, %i: tensor<i64>) -> tensor<2x2xf32> {
  %k = tensor.extract %i[] : tensor<i64>
  %j = arith.index_cast %k : i64 to index
  %r = spmd.pmap "d" (%x = %t : tensor<2x4xf32>) -> (tensor<2x2xf32>) {
    %c0 = arith.constant 0.0 : f32
    %w = tensor.insert %c0 into %x[%j] : tensor<4xf32>
    %s = tensor.extract_slice %w[%j] [2] [1] : tensor<4xf32> to tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<2x2xf32>
}
