// bench: psum of COUNT f32 per device over N devices in two groups, the
// first and the second half of the axis (lax.psum with axis_index_groups).
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %s = spmd.psum %a over "i" groups ${GROUPS} : tensor<${COUNT}xf32>
    spmd.yield %s : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
