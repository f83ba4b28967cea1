// Only device 0 reaches the psum: device 1 never arrives, so device 0 must
// give up after PCC_COLLECTIVE_TIMEOUT and say which collective it waited in
// and what device 1 is doing.
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
      %e = tensor.extract %x[%c0] : tensor<4xf32>
      scf.yield %e : f32
    }
    spmd.yield %v : f32
  }
  return %r : tensor<2xf32>
}
