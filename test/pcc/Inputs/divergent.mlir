// Device 0 sums 4 elements, device 1 sums 8: a divergence the verifier
// rejects (the scf.if depends on the device), and that the runtime must
// catch when the check is skipped (--pcc-skip-uniformity-check, for tests).
func.func @main(%a: tensor<2x4xf32>, %b: tensor<2x8xf32>) -> tensor<2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>, %y = %b : tensor<2x8xf32>)
      -> (tensor<2xf32>) {
    %i = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (f32) {
      %s = spmd.psum %x over "i" : tensor<4xf32>
      %e = tensor.extract %s[%c0] : tensor<4xf32>
      scf.yield %e : f32
    } else {
      %s = spmd.psum %y over "i" : tensor<8xf32>
      %e = tensor.extract %s[%c0] : tensor<8xf32>
      scf.yield %e : f32
    }
    spmd.yield %v : f32
  }
  return %r : tensor<2xf32>
}
