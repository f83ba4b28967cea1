// bench: a*b+c on COUNT f32 per device, N devices, written as a program
// does: two elementwise ops on tensors, which pcc fuses into one loop.
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
func.func @main(%a: tensor<${N}x${COUNT}xf32>, %b: tensor<${N}x${COUNT}xf32>,
                %c: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<${N}x${COUNT}xf32>, %y = %b : tensor<${N}x${COUNT}xf32>,
                      %z = %c : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %m = arith.mulf %x, %y : tensor<${COUNT}xf32>
    %s = arith.addf %m, %z : tensor<${COUNT}xf32>
    spmd.yield %s : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
