// bench: psum_scatter of COUNT f32 per device over N devices, tiled (each
// keeps PART = COUNT / N sums; lax.psum_scatter(..., tiled=True)).
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${PART}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${PART}xf32>) {
    %s = spmd.psum_scatter %a over "i" tiled : tensor<${COUNT}xf32> -> tensor<${PART}xf32>
    spmd.yield %s : tensor<${PART}xf32>
  }
  return %r : tensor<${N}x${PART}xf32>
}
