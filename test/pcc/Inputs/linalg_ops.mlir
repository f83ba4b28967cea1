// Upstream ops inside a pmap body: batch_matmul, broadcast, generic, map,
// math, scf.for and scf.if, on per-device data. Checked by linalg_ops.py.
func.func @main(%a: tensor<2x3x4x5xf32>, %b: tensor<2x3x5x2xf32>, %v: tensor<2x2xf32>)
    -> (tensor<2x3x4x2xf32>, tensor<2x2xf32>) {
  %r:2 = spmd.pmap "i" (%x = %a : tensor<2x3x4x5xf32>, %y = %b : tensor<2x3x5x2xf32>,
                        %w = %v : tensor<2x2xf32>)
      -> (tensor<2x3x4x2xf32>, tensor<2x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<3x4x2xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
    %prod = linalg.batch_matmul ins(%x, %y : tensor<3x4x5xf32>, tensor<3x5x2xf32>)
                                outs(%acc : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
    // Add the per-device row vector %w, broadcast over the batch and rows.
    %bcast = linalg.broadcast ins(%w : tensor<2xf32>) outs(%init : tensor<3x4x2xf32>)
                              dimensions = [0, 1]
    %sum = linalg.generic {
        indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%prod, %bcast : tensor<3x4x2xf32>, tensor<3x4x2xf32>)
        outs(%init : tensor<3x4x2xf32>) {
      ^bb0(%p: f32, %q: f32, %out: f32):
        %s = arith.addf %p, %q : f32
        %t = math.tanh %s : f32
        linalg.yield %t : f32
    } -> tensor<3x4x2xf32>
    // exp of %w, then three rounds of psum in a loop with a uniform bound.
    %e = linalg.map { math.exp } ins(%w : tensor<2xf32>) outs(%w : tensor<2xf32>)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %looped = scf.for %k = %c0 to %c3 step %c1 iter_args(%it = %e) -> tensor<2xf32> {
      %p = spmd.psum %it over "i" : tensor<2xf32>
      %half = arith.constant dense<0.5> : tensor<2xf32>
      %h = arith.mulf %p, %half : tensor<2xf32>
      scf.yield %h : tensor<2xf32>
    }
    spmd.yield %sum, %looped : tensor<3x4x2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2x3x4x2xf32>, tensor<2x2xf32>
}
