// bench: a ring shift of COUNT f32 per device over N devices with ppermute
// (device d receives device d-1's value).
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %s = spmd.ppermute %a over "i" perm ${PERM} : tensor<${COUNT}xf32>
    spmd.yield %s : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
