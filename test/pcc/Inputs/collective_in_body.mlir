// A collective in a linalg op's body over static shapes: every device runs
// the body once per element, so every device reaches each psum, whatever
// its elements hold. Row d of the result is the sum of the rows.
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x64xf32>) -> (tensor<4x64xf32>) {
    %init = tensor.empty() : tensor<64xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = spmd.psum %in over "i" : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    spmd.yield %g : tensor<64xf32>
  }
  return %r : tensor<4x64xf32>
}
