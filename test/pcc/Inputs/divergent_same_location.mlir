// Two psums written at one location: device 0 takes the first, the others
// the second. They are two call sites all the same, and devices that reach
// different ones stop with an error (they were summed together).
func.func @main(%m: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = spmd.pmap "i" (%x = %m : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    %k = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    %v = scf.if %first -> (tensor<3xf32>) {
      %s = spmd.psum %x over "i" : tensor<3xf32> loc("p.mlir":1:1)
      scf.yield %s : tensor<3xf32>
    } else {
      %t = arith.addf %x, %x : tensor<3xf32>
      %s = spmd.psum %t over "i" : tensor<3xf32> loc("p.mlir":1:1)
      scf.yield %s : tensor<3xf32>
    }
    spmd.yield %v : tensor<3xf32>
  }
  return %r : tensor<4x3xf32>
}
