// An f8 tensor in a body: upstream has no lowering of f8 arithmetic to LLVM.
#m = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf8E4M3FN>
  %t = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf8E4M3FN>) {
  ^bb0(%a: f32, %o: f8E4M3FN):
    %b = arith.truncf %a : f32 to f8E4M3FN
    linalg.yield %b : f8E4M3FN
  } -> tensor<4xf8E4M3FN>
  %e2 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]}
      ins(%t : tensor<4xf8E4M3FN>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f8E4M3FN, %o: f32):
    %b = arith.extf %a : f8E4M3FN to f32
    linalg.yield %b : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
