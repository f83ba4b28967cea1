// Only device 0 reaches the ppermute: device 1 never arrives, so device 0
// must give up after PCC_COLLECTIVE_TIMEOUT, naming its collective and
// device 1.
func.func @main(%a: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2xf32>) {
    %i = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (f32) {
      %s = spmd.ppermute %x over "i" perm [[0, 1], [1, 0]] : tensor<4xf32>
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
