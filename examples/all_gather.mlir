// lax.all_gather: every device receives every device's value.
//
//   data = jnp.arange(12).reshape((4, 3))
//   def f(x):
//     return (lax.all_gather(jnp.sum(x), 'i'),           # stacked
//             lax.all_gather(x, 'i', tiled=True))        # concatenated
//   jax.pmap(f, axis_name='i')(data)
//
// Expected output (one row per device, the same on each):
//   [[ 3 12 21 30]
//    [ 3 12 21 30]
//    [ 3 12 21 30]
//    [ 3 12 21 30]]
//   [[ 0  1  2  3  4  5  6  7  8  9 10 11]
//    ... four times]
func.func @main() -> (tensor<4x4xi32>, tensor<4x12xi32>) {
  %data = arith.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]>
      : tensor<4x3xi32>
  %sums, %rows = spmd.pmap "i" (%x = %data : tensor<4x3xi32>)
      -> (tensor<4x4xi32>, tensor<4x12xi32>) {
    %c0 = arith.constant 0 : i32
    %empty = tensor.empty() : tensor<i32>
    %zero = linalg.fill ins(%c0 : i32) outs(%empty : tensor<i32>) -> tensor<i32>
    %local = linalg.reduce ins(%x : tensor<3xi32>) outs(%zero : tensor<i32>)
        dimensions = [0]
      (%in: i32, %acc: i32) {
        %sum = arith.addi %in, %acc : i32
        linalg.yield %sum : i32
      }
    %all_sums = spmd.all_gather %local over "i" : tensor<i32> -> tensor<4xi32>
    %all_rows = spmd.all_gather %x over "i" tiled : tensor<3xi32> -> tensor<12xi32>
    spmd.yield %all_sums, %all_rows : tensor<4xi32>, tensor<12xi32>
  }
  return %sums, %rows : tensor<4x4xi32>, tensor<4x12xi32>
}
