// Math functions without an LLVM intrinsic (erf, tan, atan2, cbrt) on f32
// and f64, inside a pmap. Checked by math_ops.py against Python's math.
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf64>)
    -> (tensor<2x3xf32>, tensor<2x3xf64>) {
  %r:2 = spmd.pmap "i" (%x = %a : tensor<2x3xf32>, %y = %b : tensor<2x3xf64>)
      -> (tensor<2x3xf32>, tensor<2x3xf64>) {
    %e = math.erf %x : tensor<3xf32>
    %t = math.tan %e : tensor<3xf32>
    %c = math.cbrt %y : tensor<3xf64>
    %at = math.atan2 %c, %y : tensor<3xf64>
    spmd.yield %t, %at : tensor<3xf32>, tensor<3xf64>
  }
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xf64>
}
