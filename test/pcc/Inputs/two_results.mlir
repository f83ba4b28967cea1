// Two results, for the tests of --save-results.
func.func @main() -> (tensor<4xf32>, tensor<2xi32>) {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = arith.constant dense<[5, 6]> : tensor<2xi32>
  return %a, %b : tensor<4xf32>, tensor<2xi32>
}
