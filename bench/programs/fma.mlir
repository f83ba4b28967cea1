// bench: the fused elementwise a*b+c on COUNT f32 per device, N devices.
// Placeholders $${NAME} are filled in by bench/run.py (string.Template).
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<${N}x${COUNT}xf32>, %b: tensor<${N}x${COUNT}xf32>,
                %c: tensor<${N}x${COUNT}xf32>) -> tensor<${N}x${COUNT}xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<${N}x${COUNT}xf32>, %y = %b : tensor<${N}x${COUNT}xf32>,
                      %z = %c : tensor<${N}x${COUNT}xf32>) -> (tensor<${N}x${COUNT}xf32>) {
    %init = tensor.empty() : tensor<${COUNT}xf32>
    %out = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                           iterator_types = ["parallel"]}
        ins(%x, %y, %z : tensor<${COUNT}xf32>, tensor<${COUNT}xf32>, tensor<${COUNT}xf32>)
        outs(%init : tensor<${COUNT}xf32>) {
    ^bb0(%p: f32, %q: f32, %s: f32, %o: f32):
      %m = arith.mulf %p, %q : f32
      %v = arith.addf %m, %s : f32
      linalg.yield %v : f32
    }  -> tensor<${COUNT}xf32>
    spmd.yield %out : tensor<${COUNT}xf32>
  }
  return %r : tensor<${N}x${COUNT}xf32>
}
