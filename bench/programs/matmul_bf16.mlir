// bench: linalg.matmul of bf16 SIZE x SIZE matrices per device, N devices,
// accumulated in f32 (as cuBLAS does for bf16 inputs). bf16 has no NumPy
// dtype, so the inputs come as f32 and are rounded to bf16 first.
// Placeholders $${NAME} are filled in by bench/gpu.py (string.Template).
func.func @main(%a: tensor<${N}x${SIZE}x${SIZE}xf32>, %b: tensor<${N}x${SIZE}x${SIZE}xf32>) -> tensor<${N}x${SIZE}x${SIZE}xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<${N}x${SIZE}x${SIZE}xf32>, %y = %b : tensor<${N}x${SIZE}x${SIZE}xf32>)
      -> (tensor<${N}x${SIZE}x${SIZE}xf32>) {
    %xh = arith.truncf %x : tensor<${SIZE}x${SIZE}xf32> to tensor<${SIZE}x${SIZE}xbf16>
    %yh = arith.truncf %y : tensor<${SIZE}x${SIZE}xf32> to tensor<${SIZE}x${SIZE}xbf16>
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<${SIZE}x${SIZE}xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<${SIZE}x${SIZE}xf32>) -> tensor<${SIZE}x${SIZE}xf32>
    %p = linalg.matmul ins(%xh, %yh : tensor<${SIZE}x${SIZE}xbf16>, tensor<${SIZE}x${SIZE}xbf16>)
                       outs(%acc : tensor<${SIZE}x${SIZE}xf32>) -> tensor<${SIZE}x${SIZE}xf32>
    spmd.yield %p : tensor<${SIZE}x${SIZE}xf32>
  }
  return %r : tensor<${N}x${SIZE}x${SIZE}xf32>
}
