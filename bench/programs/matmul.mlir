// bench: linalg.matmul f32 SIZE x SIZE x SIZE per device, N devices.
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%a: tensor<${N}x${SIZE}x${SIZE}xf32>, %b: tensor<${N}x${SIZE}x${SIZE}xf32>) -> tensor<${N}x${SIZE}x${SIZE}xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<${N}x${SIZE}x${SIZE}xf32>, %y = %b : tensor<${N}x${SIZE}x${SIZE}xf32>)
      -> (tensor<${N}x${SIZE}x${SIZE}xf32>) {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<${SIZE}x${SIZE}xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<${SIZE}x${SIZE}xf32>) -> tensor<${SIZE}x${SIZE}xf32>
    %p = linalg.matmul ins(%x, %y : tensor<${SIZE}x${SIZE}xf32>, tensor<${SIZE}x${SIZE}xf32>)
                       outs(%acc : tensor<${SIZE}x${SIZE}xf32>) -> tensor<${SIZE}x${SIZE}xf32>
    spmd.yield %p : tensor<${SIZE}x${SIZE}xf32>
  }
  return %r : tensor<${N}x${SIZE}x${SIZE}xf32>
}
