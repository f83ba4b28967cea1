// bench: all_to_all of COUNT f32 per device over N devices, tiled (block j
// of PART = COUNT / N elements to device j; lax.all_to_all(..., 0, 0,
// tiled=True)).
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %s = spmd.all_to_all %a over "i" split 0 concat 0 tiled : tensor<${COUNT}xf32> -> tensor<${COUNT}xf32>
    spmd.yield %s : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
