// One collective of each kind on 4 devices, for the NCCL calls each
// becomes (test/CUDA/nccl-calls.test). Device d holds [d, 10 + d, 20 + d,
// 30 + d] (i32) and the same as f32.
func.func @main(%a: tensor<4x4xi32>, %f: tensor<4x4xf32>)
    -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x1xi32>, tensor<4x1xf32>,
        tensor<4x4xi32>, tensor<4x4xi32>) {
  %r:6 = spmd.pmap "i" (%x = %a : tensor<4x4xi32>, %y = %f : tensor<4x4xf32>)
      -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x1xi32>, tensor<4x1xf32>,
          tensor<4x4xi32>, tensor<4x4xi32>) {
    %p = spmd.ppermute %x over "i" perm [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xi32>
    %b = spmd.pbroadcast %x over "i" from 2 : tensor<4xi32>
    %s = spmd.psum_scatter %x over "i" tiled : tensor<4xi32> -> tensor<1xi32>
    %t = spmd.psum_scatter %y over "i" tiled : tensor<4xf32> -> tensor<1xf32>
    %m = spmd.all_to_all %x over "i" split 0 concat 0 tiled : tensor<4xi32> -> tensor<4xi32>
    %g = spmd.psum %x over "i" groups [[0, 1], [2, 3]] : tensor<4xi32>
    spmd.yield %p, %b, %s, %t, %m, %g : tensor<4xi32>, tensor<4xi32>, tensor<1xi32>, tensor<1xf32>, tensor<4xi32>, tensor<4xi32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x1xi32>, tensor<4x1xf32>, tensor<4x4xi32>, tensor<4x4xi32>
}
