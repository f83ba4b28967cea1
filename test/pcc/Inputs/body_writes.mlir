// Writes in a linalg op's body into tensors from outside it: each element
// writes into a copy of its own (value semantics), never into the tensor
// that the next element reads.
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<2x8xf32>, %k: tensor<2x8xi32>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %r:4 = spmd.pmap "i" (%t = %x : tensor<2x8xf32>, %ks = %k : tensor<2x8xi32>)
      -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
    // An intermediate value, which bufferization may write in place of.
    %u = arith.addf %t, %t : tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %hundred = arith.constant 100.0 : f32
    // u with u[j] = 100, read at 0.
    %insert = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%e : tensor<8xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 0 : index
      %n = tensor.insert %hundred into %u[%j] : tensor<8xf32>
      %v = tensor.extract %n[%c0] : tensor<8xf32>
      linalg.yield %v : f32
    } -> tensor<8xf32>
    // t with [-1, -2] at offset k[j] (at most 6), read at 7.
    %pair = arith.constant dense<[-1.0, -2.0]> : tensor<2xf32>
    %slice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%ks : tensor<8xi32>) outs(%e : tensor<8xf32>) {
    ^bb0(%kj: i32, %o: f32):
      %at = arith.index_cast %kj : i32 to index
      %n = tensor.insert_slice %pair into %t[%at] [2] [1] : tensor<2xf32> into tensor<8xf32>
      %v = tensor.extract %n[%c7] : tensor<8xf32>
      linalg.yield %v : f32
    } -> tensor<8xf32>
    // Through a view: u[2:6] with element j mod 4 set to 100, read at 0.
    %view = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%e : tensor<8xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 0 : index
      %s = tensor.extract_slice %u[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
      %m = arith.remui %j, %c4 : index
      %n = tensor.insert %hundred into %s[%m] : tensor<4xf32>
      %v = tensor.extract %n[%c0] : tensor<4xf32>
      linalg.yield %v : f32
    } -> tensor<8xf32>
    // A loop in the body carrying u: u[i] += j for i < 4, read at 2.
    %loop = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%e : tensor<8xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 0 : index
      %jf0 = arith.index_cast %j : index to i32
      %jf = arith.sitofp %jf0 : i32 to f32
      %c1 = arith.constant 1 : index
      %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %u) -> (tensor<8xf32>) {
        %old = tensor.extract %a[%i] : tensor<8xf32>
        %new = arith.addf %old, %jf : f32
        %b = tensor.insert %new into %a[%i] : tensor<8xf32>
        scf.yield %b : tensor<8xf32>
      }
      %v = tensor.extract %acc[%c2] : tensor<8xf32>
      linalg.yield %v : f32
    } -> tensor<8xf32>
    spmd.yield %insert, %slice, %view, %loop
        : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1, %r#2, %r#3
      : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}
