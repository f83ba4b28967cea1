// One step of data-parallel training of a multi-layer perceptron
// (784-1024-1024-10, ReLU, softmax cross-entropy), the way JAX users write
// it with pmap and pmean, the backward pass written out:
//
//   def step(params, x, y):               # x: (B, 784), y: (B, 10) one-hot
//     h1 = relu(x @ w1 + b1); h2 = relu(h1 @ w2 + b2)
//     p = softmax(h2 @ w3 + b3)
//     loss = mean(-sum(y * log(p), axis=1))
//     d3 = (p - y) / B                     # backward, layer by layer
//     d2 = (d3 @ w3.T) * (h2 > 0); d1 = (d2 @ w2.T) * (h1 > 0)
//     grads = (x.T @ d1, sum(d1, 0), h1.T @ d2, sum(d2, 0), h2.T @ d3, sum(d3, 0))
//     grads = lax.pmean(grads, 'batch')     # average over the devices
//     return [w - 0.1 * g for w, g in zip(params, grads)], lax.pmean(loss, 'batch')
//
// The parameters are captured (every device sees all of them); a global
// batch of 1024 examples is split over 2 devices, 512 each. The transposed
// products read their operand in place through the matmul's indexing maps.
// Every device ends with the same parameters, so each result holds 2
// identical copies; the last is the loss before the step.
//
//   pcc run examples/mlp_step.mlir w1.npy b1.npy w2.npy b2.npy w3.npy b3.npy xs.npy ys.npy
//   (float32: w1 (784, 1024), b1 (1024,), w2 (1024, 1024), b2 (1024,),
//    w3 (1024, 10), b3 (10,), xs (2, 512, 784), ys (2, 512, 10))
#all = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
#a = affine_map<(m, n, k) -> (m, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#vec = affine_map<(i) -> (i)>
#sum = affine_map<(i) -> ()>
func.func @main(%w1: tensor<784x1024xf32>, %b1: tensor<1024xf32>,
                %w2: tensor<1024x1024xf32>, %b2: tensor<1024xf32>,
                %w3: tensor<1024x10xf32>, %b3: tensor<10xf32>,
                %xs: tensor<2x512x784xf32>, %ys: tensor<2x512x10xf32>)
    -> (tensor<2x784x1024xf32>, tensor<2x1024xf32>, tensor<2x1024x1024xf32>,
        tensor<2x1024xf32>, tensor<2x1024x10xf32>, tensor<2x10xf32>,
        tensor<2xf32>) {
  %new:7 = spmd.pmap "batch" (%x = %xs : tensor<2x512x784xf32>,
                              %y = %ys : tensor<2x512x10xf32>)
      -> (tensor<2x784x1024xf32>, tensor<2x1024xf32>, tensor<2x1024x1024xf32>,
          tensor<2x1024xf32>, tensor<2x1024x10xf32>, tensor<2x10xf32>,
          tensor<2xf32>) {
    %zero = arith.constant 0.0 : f32
    %lowest = arith.constant 0xFF800000 : f32
    %per_example = arith.constant 0.001953125 : f32  // 1 / 512
    %rate = arith.constant 0.1 : f32

    // Forward: h = relu(in @ w + b), twice, then the logits.
    %hidden = tensor.empty() : tensor<512x1024xf32>
    %hidden0 = linalg.fill ins(%zero : f32) outs(%hidden : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %xw1 = linalg.matmul ins(%x, %w1 : tensor<512x784xf32>, tensor<784x1024xf32>)
                         outs(%hidden0 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %h1 = linalg.generic {indexing_maps = [#all, #col, #all], iterator_types = ["parallel", "parallel"]}
        ins(%xw1, %b1 : tensor<512x1024xf32>, tensor<1024xf32>) outs(%hidden : tensor<512x1024xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<512x1024xf32>
    %h1w2 = linalg.matmul ins(%h1, %w2 : tensor<512x1024xf32>, tensor<1024x1024xf32>)
                          outs(%hidden0 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %h2 = linalg.generic {indexing_maps = [#all, #col, #all], iterator_types = ["parallel", "parallel"]}
        ins(%h1w2, %b2 : tensor<512x1024xf32>, tensor<1024xf32>) outs(%hidden : tensor<512x1024xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<512x1024xf32>
    %classes = tensor.empty() : tensor<512x10xf32>
    %classes0 = linalg.fill ins(%zero : f32) outs(%classes : tensor<512x10xf32>) -> tensor<512x10xf32>
    %h2w3 = linalg.matmul ins(%h2, %w3 : tensor<512x1024xf32>, tensor<1024x10xf32>)
                          outs(%classes0 : tensor<512x10xf32>) -> tensor<512x10xf32>
    %logits = linalg.generic {indexing_maps = [#all, #col, #all], iterator_types = ["parallel", "parallel"]}
        ins(%h2w3, %b3 : tensor<512x10xf32>, tensor<10xf32>) outs(%classes : tensor<512x10xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      linalg.yield %s : f32
    } -> tensor<512x10xf32>

    // Softmax and cross-entropy, per example: the largest logit, the sum of
    // exp(logit - largest), and the label's logit.
    %examples = tensor.empty() : tensor<512xf32>
    %lowest0 = linalg.fill ins(%lowest : f32) outs(%examples : tensor<512xf32>) -> tensor<512xf32>
    %examples0 = linalg.fill ins(%zero : f32) outs(%examples : tensor<512xf32>) -> tensor<512xf32>
    %largest = linalg.generic {indexing_maps = [#all, #row], iterator_types = ["parallel", "reduction"]}
        ins(%logits : tensor<512x10xf32>) outs(%lowest0 : tensor<512xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %m = arith.maximumf %v, %acc : f32
      linalg.yield %m : f32
    } -> tensor<512xf32>
    %sums:2 = linalg.generic {indexing_maps = [#all, #all, #row, #row, #row], iterator_types = ["parallel", "reduction"]}
        ins(%logits, %y, %largest : tensor<512x10xf32>, tensor<512x10xf32>, tensor<512xf32>)
        outs(%examples0, %examples0 : tensor<512xf32>, tensor<512xf32>) {
    ^bb0(%v: f32, %label: f32, %m: f32, %acc: f32, %picked: f32):
      %shifted = arith.subf %v, %m : f32
      %e = math.exp %shifted : f32
      %s = arith.addf %acc, %e : f32
      %yv = arith.mulf %label, %v : f32
      %p = arith.addf %picked, %yv : f32
      linalg.yield %s, %p : f32, f32
    } -> (tensor<512xf32>, tensor<512xf32>)
    // The loss: mean over examples of log(sum) + largest - label's logit.
    %scalar = tensor.empty() : tensor<f32>
    %scalar0 = linalg.fill ins(%zero : f32) outs(%scalar : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#vec, #vec, #vec, #sum], iterator_types = ["reduction"]}
        ins(%sums#0, %largest, %sums#1 : tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) outs(%scalar0 : tensor<f32>) {
    ^bb0(%s: f32, %m: f32, %picked: f32, %acc: f32):
      %l = math.log %s : f32
      %lm = arith.addf %l, %m : f32
      %term = arith.subf %lm, %picked : f32
      %scaled = arith.mulf %term, %per_example : f32
      %r = arith.addf %acc, %scaled : f32
      linalg.yield %r : f32
    } -> tensor<f32>

    // Backward. d3 = (softmax - y) / B.
    %d3 = linalg.generic {indexing_maps = [#all, #all, #row, #row, #all], iterator_types = ["parallel", "parallel"]}
        ins(%logits, %y, %largest, %sums#0 : tensor<512x10xf32>, tensor<512x10xf32>, tensor<512xf32>, tensor<512xf32>)
        outs(%classes : tensor<512x10xf32>) {
    ^bb0(%v: f32, %label: f32, %m: f32, %s: f32, %out: f32):
      %shifted = arith.subf %v, %m : f32
      %e = math.exp %shifted : f32
      %p = arith.divf %e, %s : f32
      %diff = arith.subf %p, %label : f32
      %r = arith.mulf %diff, %per_example : f32
      linalg.yield %r : f32
    } -> tensor<512x10xf32>
    %gw3_0 = tensor.empty() : tensor<1024x10xf32>
    %gw3_z = linalg.fill ins(%zero : f32) outs(%gw3_0 : tensor<1024x10xf32>) -> tensor<1024x10xf32>
    %gw3 = linalg.matmul indexing_maps = [#at, #b, #c]
        ins(%h2, %d3 : tensor<512x1024xf32>, tensor<512x10xf32>) outs(%gw3_z : tensor<1024x10xf32>) -> tensor<1024x10xf32>
    %gb3_0 = tensor.empty() : tensor<10xf32>
    %gb3_z = linalg.fill ins(%zero : f32) outs(%gb3_0 : tensor<10xf32>) -> tensor<10xf32>
    %gb3 = linalg.generic {indexing_maps = [#all, #col], iterator_types = ["reduction", "parallel"]}
        ins(%d3 : tensor<512x10xf32>) outs(%gb3_z : tensor<10xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    } -> tensor<10xf32>
    // d2 = (d3 @ w3.T) * (h2 > 0)
    %dh2 = linalg.matmul indexing_maps = [#a, #bt, #c]
        ins(%d3, %w3 : tensor<512x10xf32>, tensor<1024x10xf32>) outs(%hidden0 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %d2 = linalg.generic {indexing_maps = [#all, #all, #all], iterator_types = ["parallel", "parallel"]}
        ins(%dh2, %h2 : tensor<512x1024xf32>, tensor<512x1024xf32>) outs(%hidden : tensor<512x1024xf32>) {
    ^bb0(%g: f32, %h: f32, %out: f32):
      %active = arith.cmpf ogt, %h, %zero : f32
      %r = arith.select %active, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<512x1024xf32>
    %square = tensor.empty() : tensor<1024x1024xf32>
    %square0 = linalg.fill ins(%zero : f32) outs(%square : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %gw2 = linalg.matmul indexing_maps = [#at, #b, #c]
        ins(%h1, %d2 : tensor<512x1024xf32>, tensor<512x1024xf32>) outs(%square0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %units = tensor.empty() : tensor<1024xf32>
    %units0 = linalg.fill ins(%zero : f32) outs(%units : tensor<1024xf32>) -> tensor<1024xf32>
    %gb2 = linalg.generic {indexing_maps = [#all, #col], iterator_types = ["reduction", "parallel"]}
        ins(%d2 : tensor<512x1024xf32>) outs(%units0 : tensor<1024xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    } -> tensor<1024xf32>
    // d1 = (d2 @ w2.T) * (h1 > 0)
    %dh1 = linalg.matmul indexing_maps = [#a, #bt, #c]
        ins(%d2, %w2 : tensor<512x1024xf32>, tensor<1024x1024xf32>) outs(%hidden0 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %d1 = linalg.generic {indexing_maps = [#all, #all, #all], iterator_types = ["parallel", "parallel"]}
        ins(%dh1, %h1 : tensor<512x1024xf32>, tensor<512x1024xf32>) outs(%hidden : tensor<512x1024xf32>) {
    ^bb0(%g: f32, %h: f32, %out: f32):
      %active = arith.cmpf ogt, %h, %zero : f32
      %r = arith.select %active, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<512x1024xf32>
    %input = tensor.empty() : tensor<784x1024xf32>
    %input0 = linalg.fill ins(%zero : f32) outs(%input : tensor<784x1024xf32>) -> tensor<784x1024xf32>
    %gw1 = linalg.matmul indexing_maps = [#at, #b, #c]
        ins(%x, %d1 : tensor<512x784xf32>, tensor<512x1024xf32>) outs(%input0 : tensor<784x1024xf32>) -> tensor<784x1024xf32>
    %gb1 = linalg.generic {indexing_maps = [#all, #col], iterator_types = ["reduction", "parallel"]}
        ins(%d1 : tensor<512x1024xf32>) outs(%units0 : tensor<1024xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    } -> tensor<1024xf32>

    // Average the gradients (and the loss) over the devices, then step.
    %mw1 = spmd.pmean %gw1 over "batch" : tensor<784x1024xf32>
    %mb1 = spmd.pmean %gb1 over "batch" : tensor<1024xf32>
    %mw2 = spmd.pmean %gw2 over "batch" : tensor<1024x1024xf32>
    %mb2 = spmd.pmean %gb2 over "batch" : tensor<1024xf32>
    %mw3 = spmd.pmean %gw3 over "batch" : tensor<1024x10xf32>
    %mb3 = spmd.pmean %gb3 over "batch" : tensor<10xf32>
    %mloss = spmd.pmean %loss over "batch" : tensor<f32>
    %nw1 = linalg.generic {indexing_maps = [#all, #all, #all], iterator_types = ["parallel", "parallel"]}
        ins(%w1, %mw1 : tensor<784x1024xf32>, tensor<784x1024xf32>) outs(%input : tensor<784x1024xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<784x1024xf32>
    %nw2 = linalg.generic {indexing_maps = [#all, #all, #all], iterator_types = ["parallel", "parallel"]}
        ins(%w2, %mw2 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%square : tensor<1024x1024xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<1024x1024xf32>
    %nw3 = linalg.generic {indexing_maps = [#all, #all, #all], iterator_types = ["parallel", "parallel"]}
        ins(%w3, %mw3 : tensor<1024x10xf32>, tensor<1024x10xf32>) outs(%gw3_0 : tensor<1024x10xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<1024x10xf32>
    %nb1 = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
        ins(%b1, %mb1 : tensor<1024xf32>, tensor<1024xf32>) outs(%units : tensor<1024xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<1024xf32>
    %nb2 = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
        ins(%b2, %mb2 : tensor<1024xf32>, tensor<1024xf32>) outs(%units : tensor<1024xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<1024xf32>
    %nb3 = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
        ins(%b3, %mb3 : tensor<10xf32>, tensor<10xf32>) outs(%gb3_0 : tensor<10xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %g, %rate : f32
      %r = arith.subf %w, %step : f32
      linalg.yield %r : f32
    } -> tensor<10xf32>
    spmd.yield %nw1, %nb1, %nw2, %nb2, %nw3, %nb3, %mloss
        : tensor<784x1024xf32>, tensor<1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>,
          tensor<1024x10xf32>, tensor<10xf32>, tensor<f32>
  }
  return %new#0, %new#1, %new#2, %new#3, %new#4, %new#5, %new#6
      : tensor<2x784x1024xf32>, tensor<2x1024xf32>, tensor<2x1024x1024xf32>,
        tensor<2x1024xf32>, tensor<2x1024x10xf32>, tensor<2x10xf32>, tensor<2xf32>
}
