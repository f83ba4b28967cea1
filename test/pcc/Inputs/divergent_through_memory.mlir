// Device 0 takes one branch, device 1 the other: the condition is the
// device index, passed through a buffer. The verifier must see it; past the
// verifier, the two psums have the same kind, type and shape, and the
// runtime must still stop them meeting (their call sites differ).
func.func @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %k = spmd.axis_index "i" : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    // The device's index, through memory.
    %zero = arith.constant 0.0 : f32
    %t = tensor.empty() : tensor<f32>
    %t0 = linalg.fill ins(%zero : f32) outs(%t : tensor<f32>) -> tensor<f32>
    %m = bufferization.to_buffer %t0 : tensor<f32> to memref<f32>
    linalg.fill ins(%kf : f32) outs(%m : memref<f32>)
    %back = bufferization.to_tensor %m restrict : memref<f32> to tensor<f32>
    %v = tensor.extract %back[] : tensor<f32>
    %c0 = arith.constant 0.0 : f32
    %cond = arith.cmpf oeq, %v, %c0 : f32
    %y = scf.if %cond -> (tensor<4xf32>) {
      %s = spmd.psum %x over "i" : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      %d = arith.addf %x, %x : tensor<4xf32>
      %s = spmd.psum %d over "i" : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}
