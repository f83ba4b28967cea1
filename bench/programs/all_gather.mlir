// bench: all_gather of COUNT f32 per device over N devices (lax.all_gather,
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
// tiled): every device receives all N*COUNT elements.
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${GATHERED}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${GATHERED}xf32>) {
    %g = spmd.all_gather %a over "i" tiled : tensor<${COUNT}xf32> -> tensor<${GATHERED}xf32>
    spmd.yield %g : tensor<${GATHERED}xf32>
  }
  return %r : tensor<${N}x${GATHERED}xf32>
}
