// Values with no elements cross devices as in JAX: mapped operands, psum,
// all_gather and results of size 0, beside an ordinary psum.
func.func @main(%a: tensor<4x0xf32>, %b: tensor<4x3xi32>) -> (tensor<4x0xf32>, tensor<4x4x0xf32>, tensor<4x3xi32>) {
  %r:3 = spmd.pmap "i" (%x = %a : tensor<4x0xf32>, %y = %b : tensor<4x3xi32>) -> (tensor<4x0xf32>, tensor<4x4x0xf32>, tensor<4x3xi32>) {
    %s = spmd.psum %x over "i" : tensor<0xf32>
    %g = spmd.all_gather %x over "i" : tensor<0xf32> -> tensor<4x0xf32>
    %t = spmd.psum %y over "i" : tensor<3xi32>
    spmd.yield %s, %g, %t : tensor<0xf32>, tensor<4x0xf32>, tensor<3xi32>
  }
  return %r#0, %r#1, %r#2 : tensor<4x0xf32>, tensor<4x4x0xf32>, tensor<4x3xi32>
}
