// A row reduction and a matmul, which pcc-linalg-to-gpu launches as kernels
// whose threads cooperate.
func.func @main(%a: tensor<2x8x1000xf32>, %w: tensor<64x32xf32>, %v: tensor<32x16xf32>) -> (tensor<2x8xf32>, tensor<2x64x16xf32>) {
  %r:2 = spmd.pmap "i" (%x = %a : tensor<2x8x1000xf32>) -> (tensor<2x8xf32>, tensor<2x64x16xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.reduce ins(%x : tensor<8x1000xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %0 = arith.addf %in, %acc : f32
        linalg.yield %0 : f32
      }
    %me = tensor.empty() : tensor<64x16xf32>
    %mi = linalg.fill ins(%z : f32) outs(%me : tensor<64x16xf32>) -> tensor<64x16xf32>
    %mm = linalg.matmul ins(%w, %v : tensor<64x32xf32>, tensor<32x16xf32>) outs(%mi : tensor<64x16xf32>) -> tensor<64x16xf32>
    spmd.yield %s, %mm : tensor<8xf32>, tensor<64x16xf32>
  }
  return %r#0, %r#1 : tensor<2x8xf32>, tensor<2x64x16xf32>
}
