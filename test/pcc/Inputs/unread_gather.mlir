// A gather whose values the next op never reads: its indices are still
// checked (fused away, the gather would be dead, and its checks with it).
#id = affine_map<(d0) -> (d0)>
func.func @main(%t: tensor<4xf32>, %idx: tensor<4xi32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<4xi32>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ii] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %b, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}
