// linalg.pack (with padding and an outer permutation) and linalg.unpack in
// a pmap body, around a psum: the tiles each device packs are summed, then
// unpacked again. Checked against NumPy by pack_unpack.py.
func.func @main(%a: tensor<2x5x6xi32>)
    -> (tensor<2x2x3x3x2xi32>, tensor<2x5x6xi32>) {
  %r:2 = spmd.pmap "i" (%x = %a : tensor<2x5x6xi32>)
      -> (tensor<2x2x3x3x2xi32>, tensor<2x5x6xi32>) {
    %pad = arith.constant -1 : i32
    // 5x6 in tiles of 3 rows (padded to 6 rows) by 2 columns; with
    // outer_dims_perm [1, 0] the tile grid is stored column tiles first:
    // 3 x 2 tiles of 3 x 2.
    %e = tensor.empty() : tensor<3x2x3x2xi32>
    %p = linalg.pack %x padding_value(%pad : i32) outer_dims_perm = [1, 0]
        inner_dims_pos = [0, 1] inner_tiles = [3, 2] into %e
        : tensor<5x6xi32> -> tensor<3x2x3x2xi32>
    %s = spmd.psum %p over "i" : tensor<3x2x3x2xi32>
    %o = tensor.empty() : tensor<5x6xi32>
    %u = linalg.unpack %s outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
        inner_tiles = [3, 2] into %o : tensor<3x2x3x2xi32> -> tensor<5x6xi32>
    %t = tensor.empty() : tensor<2x3x3x2xi32>
    %packedT = linalg.transpose ins(%s : tensor<3x2x3x2xi32>)
        outs(%t : tensor<2x3x3x2xi32>) permutation = [1, 0, 2, 3]
    spmd.yield %packedT, %u : tensor<2x3x3x2xi32>, tensor<5x6xi32>
  }
  return %r#0, %r#1 : tensor<2x2x3x3x2xi32>, tensor<2x5x6xi32>
}
