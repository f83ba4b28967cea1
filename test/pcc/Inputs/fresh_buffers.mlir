func.func @main(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %r = spmd.pmap "d" (%a = %x : tensor<2x64xf32>) -> (tensor<2x64xf32>) {
  %lr = arith.constant dense<0.01> : tensor<64xf32>
  %acc0 = arith.constant dense<0.0> : tensor<64xf32>
  %w0 = arith.constant dense<0.00390625> : tensor<64xf32>
  %sum = spmd.psum %a over "d" : tensor<64xf32>
  %g0 = arith.mulf %sum, %w0 : tensor<64xf32>
  %mean0 = spmd.pmean %g0 over "d" : tensor<64xf32>
  %step0 = arith.mulf %mean0, %lr : tensor<64xf32>
  %new0 = arith.subf %w0, %step0 : tensor<64xf32>
  %acc1 = arith.addf %acc0, %new0 : tensor<64xf32>
  %w1 = arith.constant dense<0.0078125> : tensor<64xf32>
  %g1 = arith.mulf %sum, %w1 : tensor<64xf32>
  %mean1 = spmd.pmean %g1 over "d" : tensor<64xf32>
  %step1 = arith.mulf %mean1, %lr : tensor<64xf32>
  %new1 = arith.subf %w1, %step1 : tensor<64xf32>
  %acc2 = arith.addf %acc1, %new1 : tensor<64xf32>
  %w2 = arith.constant dense<0.01171875> : tensor<64xf32>
  %g2 = arith.mulf %sum, %w2 : tensor<64xf32>
  %mean2 = spmd.pmean %g2 over "d" : tensor<64xf32>
  %step2 = arith.mulf %mean2, %lr : tensor<64xf32>
  %new2 = arith.subf %w2, %step2 : tensor<64xf32>
  %acc3 = arith.addf %acc2, %new2 : tensor<64xf32>
  spmd.yield %acc3 : tensor<64xf32>
  }
  return %r : tensor<2x64xf32>
}
