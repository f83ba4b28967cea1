// Writes into the buffers of bufferization.to_buffer: of an entry argument
// and of a constant that a pmap captures, of a pmap's operand, and on the
// host. Each to_buffer has a buffer of its own: the writes are seen through
// it, and the tensors keep their values (what test/pcc/to-buffer-writes.test
// checks).
func.func @main(%a: tensor<2x4xf32>, %b: tensor<4xf32>)
    -> (tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<4xf32>, tensor<4xf32>) {
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  %five = arith.constant 5.0 : f32
  %seven = arith.constant 7.0 : f32
  // A captured argument and a captured constant, written on every device.
  %s = spmd.pmap "i" size 2 -> (tensor<2x4xf32>) {
    %m = bufferization.to_buffer %b : tensor<4xf32> to memref<4xf32>
    linalg.fill ins(%five : f32) outs(%m : memref<4xf32>)
    %n = bufferization.to_buffer %zeros read_only : tensor<4xf32> to memref<4xf32>
    linalg.fill ins(%seven : f32) outs(%n : memref<4xf32>)
    %tm = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
    %tn = bufferization.to_tensor %n restrict : memref<4xf32> to tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %sum = linalg.add ins(%tm, %tn : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    spmd.yield %sum : tensor<4xf32>
  }
  %e1 = tensor.empty() : tensor<4xf32>
  %twice_b = linalg.add ins(%b, %b : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  // A pmap's operand.
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %m = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
    linalg.fill ins(%seven : f32) outs(%m : memref<4xf32>)
    %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
    spmd.yield %t : tensor<4xf32>
  }
  %e2 = tensor.empty() : tensor<2x4xf32>
  %twice_a = linalg.add ins(%a, %a : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  // On the host.
  %h = bufferization.to_buffer %b : tensor<4xf32> to memref<4xf32>
  linalg.fill ins(%seven : f32) outs(%h : memref<4xf32>)
  %th = bufferization.to_tensor %h restrict : memref<4xf32> to tensor<4xf32>
  return %s, %twice_b, %r, %twice_a, %th, %zeros
      : tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<4xf32>, tensor<4xf32>
}
