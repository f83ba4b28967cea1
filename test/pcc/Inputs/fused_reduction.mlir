// (x * 1e30) * 1e-30, summed along rows: the products are fused into the
// sum's loop, and must keep their order (1e10 * 1e30 overflows to inf).
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2x4xf32>) {
  %c1 = arith.constant dense<1.0e30> : tensor<2x4xf32>
  %c2 = arith.constant dense<1.0e-30> : tensor<2x4xf32>
  %a = arith.mulf %x, %c1 : tensor<2x4xf32>
  %b = arith.mulf %a, %c2 : tensor<2x4xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<2x4xf32>) outs(%z : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %acc, %in : f32
    linalg.yield %t : f32
  } -> tensor<2xf32>
  %y = arith.subf %x, %b : tensor<2x4xf32>
  %w = arith.mulf %y, %x : tensor<2x4xf32>
  return %s, %w : tensor<2xf32>, tensor<2x4xf32>
}
