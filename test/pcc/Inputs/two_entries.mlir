func.func @main() -> tensor<2xi32> {
  %c = arith.constant dense<1> : tensor<2xi32>
  return %c : tensor<2xi32>
}

func.func @second() -> tensor<2xi32> {
  %r = spmd.pmap "i" size 2 () -> (tensor<2xi32>) {
    %c = arith.constant 7 : i32
    spmd.yield %c : i32
  }
  return %r : tensor<2xi32>
}
