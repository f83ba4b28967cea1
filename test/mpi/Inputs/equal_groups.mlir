// Three pmaps with equal groups tables, two of them in functions of their
// own: each pmap holds its own copy of the table, but the groups are the
// same devices, and every process must number their collectives as one
// group's. On x = arange(16).reshape(4, 4), groups {0, 2} and {1, 3}:
//   pmax            rows 0, 2: x[2]            rows 1, 3: x[3]
//   psum of that    rows 0, 2: 2 x[2]          rows 1, 3: 2 x[3]
//   psum of x       rows 0, 2: x[0] + x[2]     rows 1, 3: x[1] + x[3]
func.func @maxima(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = spmd.pmap "i" (%v = %x : tensor<4x4xf32>) -> (tensor<4x4xf32>) {
    %m = spmd.pmax %v over "i" groups [[0, 2], [1, 3]] : tensor<4xf32>
    spmd.yield %m : tensor<4xf32>
  }
  return %r : tensor<4x4xf32>
}
func.func @sums(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = spmd.pmap "i" (%v = %x : tensor<4x4xf32>) -> (tensor<4x4xf32>) {
    %s = spmd.psum %v over "i" groups [[0, 2], [1, 3]] : tensor<4xf32>
    spmd.yield %s : tensor<4xf32>
  }
  return %r : tensor<4x4xf32>
}
func.func @main(%x: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = func.call @maxima(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = func.call @sums(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = spmd.pmap "i" (%v = %x : tensor<4x4xf32>) -> (tensor<4x4xf32>) {
    %s = spmd.psum %v over "i" groups [[0, 2], [1, 3]] : tensor<4xf32>
    spmd.yield %s : tensor<4xf32>
  }
  return %a, %b, %c : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
