// The seed's second program, as JAX writes it:
//
//   data = jnp.arange(12, dtype=jnp.float32).reshape((4, 3))
//   jax.pmap(lambda x: lax.pmean(jnp.mean(x), 'devices'), axis_name='devices')(data)
//
// Device d holds row d; its local means are 1, 4, 7 and 10; pmean averages
// them: (1 + 4 + 7 + 10) / 4 = 5.5 on every device.
// Expected output: [5.5 5.5 5.5 5.5]
func.func @main() -> tensor<4xf32> {
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0],
                                [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]>
      : tensor<4x3xf32>
  %result = spmd.pmap "devices" (%x = %data : tensor<4x3xf32>) -> (tensor<4xf32>) {
    %c0 = arith.constant 0.0 : f32
    %count = arith.constant 3.0 : f32
    %empty = tensor.empty() : tensor<f32>
    %zero = linalg.fill ins(%c0 : f32) outs(%empty : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%x : tensor<3xf32>) outs(%zero : tensor<f32>)
        dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %local = linalg.map ins(%sum : tensor<f32>) outs(%empty : tensor<f32>)
      (%s: f32, %unused: f32) {
        %mean = arith.divf %s, %count : f32
        linalg.yield %mean : f32
      }
    %mean = spmd.pmean %local over "devices" : tensor<f32>
    spmd.yield %mean : tensor<f32>
  }
  return %result : tensor<4xf32>
}
