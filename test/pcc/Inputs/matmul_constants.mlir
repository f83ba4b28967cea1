// A matmul per device on constants, the second operand read transposed:
// device 0 computes [[1 2] [3 4]] * [[1 0] [1 1]]^T, device 1
// [[0 1] [1 0]] * [[2 0] [0 2]]^T.
func.func @main() -> tensor<2x2x2xf32> {
  %a = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]]> : tensor<2x2x2xf32>
  %b = arith.constant dense<[[[1.0, 0.0], [1.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]> : tensor<2x2x2xf32>
  %r = spmd.pmap "i" (%x = %a : tensor<2x2x2xf32>, %y = %b : tensor<2x2x2xf32>)
      -> (tensor<2x2x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<2x2xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
    %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>]
        ins(%x, %y : tensor<2x2xf32>, tensor<2x2xf32>)
        outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
    spmd.yield %p : tensor<2x2xf32>
  }
  return %r : tensor<2x2x2xf32>
}
