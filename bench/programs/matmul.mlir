// bench: linalg.matmul f32, an M x K by K x N product per device, N devices
// (DEVICES), each operand stored as it is or transposed (A as K x M, B as
// N x K, read through the indexing maps).
// Placeholders $${NAME} are filled in by bench/run.py's matmul_params
// (string.Template).
func.func @main(%a: tensor<${DEVICES}x${A}xf32>, %b: tensor<${DEVICES}x${B}xf32>) -> tensor<${DEVICES}x${C}xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<${DEVICES}x${A}xf32>, %y = %b : tensor<${DEVICES}x${B}xf32>)
      -> (tensor<${DEVICES}x${C}xf32>) {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<${C}xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<${C}xf32>) -> tensor<${C}xf32>
    %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> ${A_MAP}>,
                                        affine_map<(m, n, k) -> ${B_MAP}>,
                                        affine_map<(m, n, k) -> (m, n)>]
                       ins(%x, %y : tensor<${A}xf32>, tensor<${B}xf32>)
                       outs(%acc : tensor<${C}xf32>) -> tensor<${C}xf32>
    spmd.yield %p : tensor<${C}xf32>
  }
  return %r : tensor<${DEVICES}x${C}xf32>
}
