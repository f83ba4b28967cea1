// An unpack of a dynamically shaped value.
func.func @main(%a: tensor<4x3x2xf32>) -> tensor<8x3xf32> {
  %d = tensor.cast %a : tensor<4x3x2xf32> to tensor<?x3x2xf32>
  %o = tensor.empty() : tensor<8x3xf32>
  %u = linalg.unpack %d inner_dims_pos = [0] inner_tiles = [2] into %o : tensor<?x3x2xf32> -> tensor<8x3xf32>
  return %u : tensor<8x3xf32>
}
