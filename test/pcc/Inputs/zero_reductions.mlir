// Reductions over nothing return their inits, also where the payload never
// reads the init (bufferization copies an init only where it is read).
func.func @main(%x: tensor<2x3x0xf32>, %y: tensor<2x3xf32>, %w: tensor<2x4xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3x2xf32>) {
  %r:4 = spmd.pmap "i" (%xs = %x : tensor<2x3x0xf32>, %ys = %y : tensor<2x3xf32>,
                        %ws = %w : tensor<2x4xf32>)
      -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3x2xf32>) {
    // Statically empty: the last element of nothing is the init, 7.
    %c7 = arith.constant 7.0 : f32
    %e3 = tensor.empty() : tensor<3xf32>
    %sevens = linalg.fill ins(%c7 : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
    %last = linalg.reduce ins(%xs : tensor<3x0xf32>) outs(%sevens : tensor<3xf32>)
        dimensions = [1]
      (%in: f32, %acc: f32) {
        linalg.yield %in : f32
      }
    // The init is the pmap's input, which may not be overwritten.
    %doubled = linalg.generic {
        indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
        iterator_types = ["parallel", "reduction"]}
        ins(%xs : tensor<3x0xf32>) outs(%ys : tensor<3xf32>) {
      ^bb0(%in: f32, %out: f32):
        %two = arith.mulf %in, %in : f32
        linalg.yield %two : f32
      } -> tensor<3xf32>
    // Dynamically sized: device 0 reduces nothing (-1), device 1 the
    // first element of its row.
    %k = spmd.axis_index "i" : index
    %slice = tensor.extract_slice %ws[0] [%k] [1] : tensor<4xf32> to tensor<?xf32>
    %cm1 = arith.constant -1.0 : f32
    %e0 = tensor.empty() : tensor<f32>
    %minus = linalg.fill ins(%cm1 : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %dyn = linalg.reduce ins(%slice : tensor<?xf32>) outs(%minus : tensor<f32>)
        dimensions = [0]
      (%in: f32, %acc: f32) {
        linalg.yield %in : f32
      }
    // A matmul over an empty inner dimension: its init, 5.
    %c5 = arith.constant 5.0 : f32
    %e32 = tensor.empty() : tensor<3x2xf32>
    %fives = linalg.fill ins(%c5 : f32) outs(%e32 : tensor<3x2xf32>) -> tensor<3x2xf32>
    %b = tensor.empty() : tensor<0x2xf32>
    %mm = linalg.matmul ins(%xs, %b : tensor<3x0xf32>, tensor<0x2xf32>)
        outs(%fives : tensor<3x2xf32>) -> tensor<3x2xf32>
    spmd.yield %last, %doubled, %dyn, %mm : tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<3x2xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3x2xf32>
}
