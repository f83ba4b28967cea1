// bench: row sums of a ROWSxCOLS f32 matrix per device, N devices.
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%m: tensor<${N}x${ROWS}x${COLS}xf32>) -> tensor<${N}x${ROWS}xf32> {
  %r = spmd.pmap "i" (%x = %m : tensor<${N}x${ROWS}x${COLS}xf32>) -> (tensor<${N}x${ROWS}xf32>) {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<${ROWS}xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<${ROWS}xf32>) -> tensor<${ROWS}xf32>
    %s = linalg.reduce ins(%x : tensor<${ROWS}x${COLS}xf32>) outs(%acc : tensor<${ROWS}xf32>)
        dimensions = [1]
      (%in: f32, %a: f32) {
        %t = arith.addf %in, %a : f32
        linalg.yield %t : f32
      }
    spmd.yield %s : tensor<${ROWS}xf32>
  }
  return %r : tensor<${N}x${ROWS}xf32>
}
