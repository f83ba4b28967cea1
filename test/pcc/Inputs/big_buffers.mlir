// Each of 4 devices holds a 64 MiB buffer (a max-reduction of it keeps it
// alive), for the memory-limit tests.
func.func @main() -> tensor<4xf32> {
  %r = spmd.pmap "i" size 4 () -> (tensor<4xf32>) {
    %i = spmd.axis_index "i" : index
    %ii = arith.index_cast %i : index to i32
    %z = arith.sitofp %ii : i32 to f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %c0 = arith.constant 0.0 : f32
    %o = tensor.empty() : tensor<f32>
    %oi = linalg.fill ins(%c0 : f32) outs(%o : tensor<f32>) -> tensor<f32>
    %red = linalg.reduce ins(%f : tensor<4096x4096xf32>) outs(%oi : tensor<f32>) dimensions = [0, 1]
      (%a: f32, %b: f32) { %s = arith.maximumf %a, %b : f32
        linalg.yield %s : f32 }
    %s = spmd.psum %red over "i" : tensor<f32>
    spmd.yield %s : tensor<f32>
  }
  return %r : tensor<4xf32>
}
