// A ring all-reduce written with ppermute, as JAX users write one:
//
//   def ring_sum(x):
//     acc, msg = x, x
//     for _ in range(n - 1):
//       msg = lax.ppermute(msg, 'ring', [(i, (i + 1) % n) for i in range(n)])
//       acc = acc + msg
//     return acc
//
// Each of 4 devices holds row d of arange(12).reshape(4, 3); after 3 steps
// around the ring every device holds the column sums [18 22 26], which
// spmd.psum computes in one collective. (Floating-point sums in another
// order may differ in the last bit; these are integers.)
// Expected output:
//   [[18 22 26]
//    [18 22 26]
//    [18 22 26]
//    [18 22 26]]
//   [[18 22 26]
//    [18 22 26]
//    [18 22 26]
//    [18 22 26]]
func.func @main() -> (tensor<4x3xi32>, tensor<4x3xi32>) {
  %data = arith.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]>
      : tensor<4x3xi32>
  %r:2 = spmd.pmap "ring" (%x = %data : tensor<4x3xi32>)
      -> (tensor<4x3xi32>, tensor<4x3xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 3 : index
    %sum:2 = scf.for %step = %c0 to %steps step %c1
        iter_args(%acc = %x, %msg = %x) -> (tensor<3xi32>, tensor<3xi32>) {
      %next = spmd.ppermute %msg over "ring"
          perm [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<3xi32>
      %grown = arith.addi %acc, %next : tensor<3xi32>
      scf.yield %grown, %next : tensor<3xi32>, tensor<3xi32>
    }
    %psum = spmd.psum %x over "ring" : tensor<3xi32>
    spmd.yield %sum#0, %psum : tensor<3xi32>, tensor<3xi32>
  }
  return %r#0, %r#1 : tensor<4x3xi32>, tensor<4x3xi32>
}
