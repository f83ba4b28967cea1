// A 2 x 3 device grid from two nested pmaps (JAX: nested jax.pmap with axis
// names 'i' and 'j'). Device (i, j) holds data[i][j]; the grid is row-major,
// so its linear index is i*3 + j.
//
// Expected output:
//   [[ 6  6  6]          psum over "j": each row's sum
//    [15 15 15]]
//   [[21 21 21]          psum over ["i", "j"]: the sum of all six
//    [21 21 21]]
//   [[4 5 6]             pmax over "i": each column's maximum
//    [4 5 6]]
//   [[0 1 2]             axis_index ["i", "j"]: the linear device index
//    [3 4 5]]
func.func @main() -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>,
                      tensor<2x3xi32>) {
  %data = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %rows, %all, %cols, %ids = spmd.pmap "i" (%row = %data : tensor<2x3xi32>)
      -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {
    %r, %a, %c, %d = spmd.pmap "j" (%x = %row : tensor<3xi32>)
        -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
      %row_sum = spmd.psum %x over "j" : tensor<i32>
      %total = spmd.psum %x over ["i", "j"] : tensor<i32>
      %col_max = spmd.pmax %x over "i" : tensor<i32>
      %index = spmd.axis_index ["i", "j"] : index
      %id = arith.index_cast %index : index to i32
      spmd.yield %row_sum, %total, %col_max, %id
          : tensor<i32>, tensor<i32>, tensor<i32>, i32
    }
    spmd.yield %r, %a, %c, %d
        : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
  }
  return %rows, %all, %cols, %ids
      : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
}
