// Returns one pmap result at several positions, directly, through a cast,
// and from a private function that returns its result twice.
func.func private @twice(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %m = spmd.pmax %x over "i" : tensor<4xf32>
    spmd.yield %m : tensor<4xf32>
  }
  return %r, %r : tensor<2x4xf32>, tensor<2x4xf32>
}

func.func @main(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %s = spmd.psum %x over "i" : tensor<4xf32>
    spmd.yield %s : tensor<4xf32>
  }
  %p, %q = call @twice(%a) : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %sum = arith.addf %p, %q : tensor<2x4xf32>
  %c = tensor.cast %r : tensor<2x4xf32> to tensor<?x4xf32>
  %d = tensor.cast %c : tensor<?x4xf32> to tensor<2x4xf32>
  return %r, %sum, %r, %d : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
