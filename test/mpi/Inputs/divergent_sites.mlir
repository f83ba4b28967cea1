// Both devices run a psum of the same type, from different lines: a
// divergence the runtime must catch (summing one site's values with
// another's would be a wrong answer) with the uniformity check skipped.
func.func @main(%a: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2xf32>) {
    %i = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (f32) {
      %s = spmd.psum %x over "i" : tensor<4xf32>
      %e = tensor.extract %s[%c0] : tensor<4xf32>
      scf.yield %e : f32
    } else {
      %s = spmd.psum %x over "i" : tensor<4xf32>
      %e = tensor.extract %s[%c0] : tensor<4xf32>
      scf.yield %e : f32
    }
    spmd.yield %v : f32
  }
  return %r : tensor<2xf32>
}
