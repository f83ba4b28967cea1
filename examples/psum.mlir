// The seed's first program, as JAX writes it:
//
//   data = jnp.arange(12).reshape((4, 3))
//   jax.pmap(lambda x: lax.psum(jnp.sum(x), 'devices'), axis_name='devices')(data)
//
// Device d holds row d and sums it (3, 12, 21, 30); psum adds the four local
// sums and hands the total to every device.
// Expected output: [66 66 66 66]
func.func @main() -> tensor<4xi32> {
  %data = arith.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]>
      : tensor<4x3xi32>
  %result = spmd.pmap "devices" (%x = %data : tensor<4x3xi32>) -> (tensor<4xi32>) {
    %c0 = arith.constant 0 : i32
    %empty = tensor.empty() : tensor<i32>
    %zero = linalg.fill ins(%c0 : i32) outs(%empty : tensor<i32>) -> tensor<i32>
    %local = linalg.reduce ins(%x : tensor<3xi32>) outs(%zero : tensor<i32>)
        dimensions = [0]
      (%in: i32, %acc: i32) {
        %sum = arith.addi %in, %acc : i32
        linalg.yield %sum : i32
      }
    %total = spmd.psum %local over "devices" : tensor<i32>
    spmd.yield %total : tensor<i32>
  }
  return %result : tensor<4xi32>
}
