// A ZeRO-style data-parallel update, as in JAX:
//
//   def step(params, grads):            # per device: all 8 parameters
//     g = lax.psum_scatter(grads, 'dp', tiled=True)  # my 2 summed gradients
//     k = lax.axis_index('dp')
//     shard = lax.dynamic_slice(params, (2 * k,), (2,)) - 0.5 * g
//     return lax.all_gather(shard, 'dp', tiled=True)  # all 8 updated params
//
// Each device keeps only the optimizer work for its shard of the
// parameters: the gradients are reduce-scattered (each device receives the
// sum of its 2 entries), the shard is updated with SGD (learning rate 0.5),
// and the updated shards are all-gathered. Parameters are arange(8); device
// d's gradient is d + 1 everywhere, so every summed gradient is 10 and every
// parameter drops by 5.
// Expected output (every device):
//   [-5. -4. -3. -2. -1.  0.  1.  2.]
func.func @main() -> tensor<4x8xf32> {
  %params = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]>
      : tensor<8xf32>
  %r = spmd.pmap "dp" size 4 -> (tensor<4x8xf32>) {
    %k = spmd.axis_index "dp" : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %one = arith.constant 1.0 : f32
    %gval = arith.addf %kf, %one : f32
    %grads = tensor.splat %gval : tensor<8xf32>
    %g = spmd.psum_scatter %grads over "dp" tiled : tensor<8xf32> -> tensor<2xf32>
    %c2 = arith.constant 2 : index
    %offset = arith.muli %k, %c2 : index
    %shard = tensor.extract_slice %params[%offset] [2] [1]
        : tensor<8xf32> to tensor<2xf32>
    %lr = arith.constant dense<0.5> : tensor<2xf32>
    %scaled = arith.mulf %g, %lr : tensor<2xf32>
    %updated = arith.subf %shard, %scaled : tensor<2xf32>
    %all = spmd.all_gather %updated over "dp" tiled : tensor<2xf32> -> tensor<8xf32>
    spmd.yield %all : tensor<8xf32>
  }
  return %r : tensor<4x8xf32>
}
