// bench: STEPS psums of COUNT f32 per device over N devices in one pmap
// run, for the latency of the collective alone.
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%x: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant ${STEPS} : index
    %s = scf.for %k = %c0 to %steps step %c1 iter_args(%prev = %a) -> (tensor<${COUNT}xf32>) {
      %t = spmd.psum %a over "i" : tensor<${COUNT}xf32>
      scf.yield %t : tensor<${COUNT}xf32>
    }
    spmd.yield %s : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
