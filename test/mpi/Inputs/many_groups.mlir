// 16 groups of 2 devices, each spanning both processes of `mpirun -np 2`
// (a 2 x 16 grid split by rows, reduced over "i"), in a loop of 40 steps:
// more groups than the mailboxes between two processes (8), so that some
// groups' messages go by shared memory and others by MPI, and each group
// runs collectives of both kinds of size (4 floats travel with their
// header; 16,384 are split between the processes and go by MPI). Each step
// is s' = psum(s) / 2 + i and t' = psum(t) / 2 + i; then an all_gather.
func.func @main(%x: tensor<2x16x4xf32>, %y: tensor<2x16x16384xf32>)
    -> (tensor<2x16x4xf32>, tensor<2x16x16384xf32>, tensor<2x16x8xf32>) {
  %a, %b, %g = spmd.pmap "i" (%xi = %x : tensor<2x16x4xf32>,
                              %yi = %y : tensor<2x16x16384xf32>)
      -> (tensor<2x16x4xf32>, tensor<2x16x16384xf32>, tensor<2x16x8xf32>) {
    %a2, %b2, %g2 = spmd.pmap "j" (%s0 = %xi : tensor<16x4xf32>,
                                   %t0 = %yi : tensor<16x16384xf32>)
        -> (tensor<16x4xf32>, tensor<16x16384xf32>, tensor<16x8xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %steps = arith.constant 40 : index
      %half = arith.constant 0.5 : f32
      %index = spmd.axis_index "i" : index
      %i32 = arith.index_cast %index : index to i32
      %i = arith.sitofp %i32 : i32 to f32
      %r:2 = scf.for %k = %c0 to %steps step %c1
          iter_args(%s = %s0, %t = %t0) -> (tensor<4xf32>, tensor<16384xf32>) {
        %p = spmd.psum %s over "i" : tensor<4xf32>
        %q = spmd.psum %t over "i" : tensor<16384xf32>
        %s2 = linalg.map ins(%p : tensor<4xf32>) outs(%s : tensor<4xf32>)
          (%v: f32, %unused: f32) {
            %h = arith.mulf %v, %half : f32
            %n = arith.addf %h, %i : f32
            linalg.yield %n : f32
          }
        %t2 = linalg.map ins(%q : tensor<16384xf32>)
                         outs(%t : tensor<16384xf32>)
          (%v: f32, %unused: f32) {
            %h = arith.mulf %v, %half : f32
            %n = arith.addf %h, %i : f32
            linalg.yield %n : f32
          }
        scf.yield %s2, %t2 : tensor<4xf32>, tensor<16384xf32>
      }
      %all = spmd.all_gather %r#0 over "i" tiled : tensor<4xf32> -> tensor<8xf32>
      spmd.yield %r#0, %r#1, %all : tensor<4xf32>, tensor<16384xf32>, tensor<8xf32>
    }
    spmd.yield %a2, %b2, %g2
        : tensor<16x4xf32>, tensor<16x16384xf32>, tensor<16x8xf32>
  }
  return %a, %b, %g
      : tensor<2x16x4xf32>, tensor<2x16x16384xf32>, tensor<2x16x8xf32>
}
