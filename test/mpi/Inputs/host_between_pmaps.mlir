// Host code between pmaps and a pmap in a host loop: every process runs the
// host code on the whole outputs, so each pmap's outputs must reach every
// process. NumPy:
//   r = x + arange(4)[:, None]        (x = arange(12).reshape(4, 3))
//   a = r[::-1]; 3 times: a = roll(a, 1, axis=0) + a
func.func @main(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %r = spmd.pmap "i" (%v = %x : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    %i = spmd.axis_index "i" : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %e = tensor.empty() : tensor<3xf32>
    %b = linalg.fill ins(%f : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %s = arith.addf %v, %b : tensor<3xf32>
    spmd.yield %s : tensor<3xf32>
  }
  // host code between the pmaps: reverse the rows
  %h = tensor.empty() : tensor<4x3xf32>
  %rev = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (3 - d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x3xf32>) outs(%h : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %loop = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %rev) -> (tensor<4x3xf32>) {
    %q = spmd.pmap "j" (%w = %acc : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
      %p = spmd.ppermute %w over "j" perm [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<3xf32>
      %t = arith.addf %p, %w : tensor<3xf32>
      spmd.yield %t : tensor<3xf32>
    }
    scf.yield %q : tensor<4x3xf32>
  }
  return %r, %loop : tensor<4x3xf32>, tensor<4x3xf32>
}
