// A collective in the body of a linalg op over a slice whose size every
// device shares (an argument), whose elements differ between devices.
func.func @main(%a: tensor<4x8xf32>, %n: tensor<i64>) -> tensor<4x8xf32> {
  %nv = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nv : i64 to index
  %r = spmd.pmap "i" (%x = %a : tensor<4x8xf32>) -> (tensor<4x8xf32>) {
    %sl = tensor.extract_slice %x[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
    %init = tensor.empty(%ni) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(a)->(a)>, affine_map<(a)->(a)>], iterator_types = ["parallel"]}
        ins(%sl : tensor<?xf32>) outs(%init : tensor<?xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = spmd.pmax %in over "i" : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    %c = tensor.cast %g : tensor<?xf32> to tensor<8xf32>
    spmd.yield %c : tensor<8xf32>
  }
  return %r : tensor<4x8xf32>
}
