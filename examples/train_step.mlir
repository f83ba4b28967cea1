// One step of data-parallel training of a linear model, the way JAX users
// write it with pmap and pmean:
//
//   def step(w, x, y):                      # x: (B, D), y: (B, K) per device
//     grad = x.T @ (x @ w - y) / B          # gradient of the mean squared error / 2
//     grad = lax.pmean(grad, 'batch')       # average over the devices
//     return w - 0.1 * grad
//   new_w = jax.pmap(step, axis_name='batch', in_axes=(None, 0, 0))(w, xs, ys)
//
// The weight is captured (every device sees all of it, in_axes=None); the
// batch is split over 4 devices. Every device ends with the same new
// weights, so the result holds 4 identical copies.
//
//   pcc run examples/train_step.mlir w.npy xs.npy ys.npy
//   (w: float32 (3, 2), xs: float32 (4, 8, 3), ys: float32 (4, 8, 2))
func.func @main(%w: tensor<3x2xf32>, %xs: tensor<4x8x3xf32>,
                %ys: tensor<4x8x2xf32>) -> tensor<4x3x2xf32> {
  %new = spmd.pmap "batch" (%x = %xs : tensor<4x8x3xf32>,
                            %y = %ys : tensor<4x8x2xf32>)
      -> (tensor<4x3x2xf32>) {
    %zero = arith.constant 0.0 : f32
    // Forward: predictions and their error.
    %pred_init = tensor.empty() : tensor<8x2xf32>
    %pred_zero = linalg.fill ins(%zero : f32) outs(%pred_init : tensor<8x2xf32>)
        -> tensor<8x2xf32>
    %pred = linalg.matmul ins(%x, %w : tensor<8x3xf32>, tensor<3x2xf32>)
                          outs(%pred_zero : tensor<8x2xf32>) -> tensor<8x2xf32>
    %err = arith.subf %pred, %y : tensor<8x2xf32>
    // Backward: x^T @ err / B.
    %xt_init = tensor.empty() : tensor<3x8xf32>
    %xt = linalg.transpose ins(%x : tensor<8x3xf32>)
                           outs(%xt_init : tensor<3x8xf32>) permutation = [1, 0]
    %grad_init = tensor.empty() : tensor<3x2xf32>
    %grad_zero = linalg.fill ins(%zero : f32) outs(%grad_init : tensor<3x2xf32>)
        -> tensor<3x2xf32>
    %grad_sum = linalg.matmul ins(%xt, %err : tensor<3x8xf32>, tensor<8x2xf32>)
                              outs(%grad_zero : tensor<3x2xf32>) -> tensor<3x2xf32>
    %batch = arith.constant dense<8.0> : tensor<3x2xf32>
    %grad = arith.divf %grad_sum, %batch : tensor<3x2xf32>
    // All devices average their gradients, then apply the same update.
    %mean = spmd.pmean %grad over "batch" : tensor<3x2xf32>
    %rate = arith.constant dense<0.1> : tensor<3x2xf32>
    %step = arith.mulf %mean, %rate : tensor<3x2xf32>
    %updated = arith.subf %w, %step : tensor<3x2xf32>
    spmd.yield %updated : tensor<3x2xf32>
  }
  return %new : tensor<4x3x2xf32>
}
