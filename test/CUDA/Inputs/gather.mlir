// Gathers x[idx[i]] for each i: an index outside x is out of bounds.
func.func @main(%x: tensor<8xf32>, %idx: tensor<4xi64>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%j: i64, %o: f32):
    %i = arith.index_cast %j : i64 to index
    %v = tensor.extract %x[%i] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
