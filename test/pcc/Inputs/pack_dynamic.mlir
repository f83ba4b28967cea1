// A pack whose tile size is only known at run time.
func.func @main(%a: tensor<8x3xf32>, %s: i64) -> tensor<4x3x2xf32> {
  %t = arith.index_cast %s : i64 to index
  %c8 = arith.constant 8 : index
  %tiles = arith.divui %c8, %t : index
  %e = tensor.empty(%tiles, %t) : tensor<?x3x?xf32>
  %p = linalg.pack %a inner_dims_pos = [0] inner_tiles = [%t] into %e : tensor<8x3xf32> -> tensor<?x3x?xf32>
  %c = tensor.cast %p : tensor<?x3x?xf32> to tensor<4x3x2xf32>
  return %c : tensor<4x3x2xf32>
}
