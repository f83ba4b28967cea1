// Slices at offsets read from memory, inside a kernel: element j reads
// t[k[j] + 1] through a 2-element view, and writes [100, 200] at k[j] into
// a copy of t, read back at 3.
#id = affine_map<(d0) -> (d0)>
func.func @main(%t: tensor<4xf32>, %k: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %pair = arith.constant dense<[100.0, 200.0]> : tensor<2xf32>
  %read, %written = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%k : tensor<4xi32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%kj: i32, %o: f32, %p: f32):
    %at = arith.index_cast %kj : i32 to index
    %s = tensor.extract_slice %t[%at] [2] [1] : tensor<4xf32> to tensor<2xf32>
    %v = tensor.extract %s[%c1] : tensor<2xf32>
    %n = tensor.insert_slice %pair into %t[%at] [2] [1] : tensor<2xf32> into tensor<4xf32>
    %w = tensor.extract %n[%c3] : tensor<4xf32>
    linalg.yield %v, %w : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %read, %written : tensor<4xf32>, tensor<4xf32>
}
