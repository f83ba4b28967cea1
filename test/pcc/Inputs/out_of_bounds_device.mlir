// Device d reads t[2 * d]: in bounds on devices 0-2 of 4, out of bounds on
// device 3 alone, whose error names it.
func.func @main(%t: tensor<5xf32>) -> tensor<4xf32> {
  %r = spmd.pmap "d" size 4 -> (tensor<4xf32>) {
    %d = spmd.axis_index "d" : index
    %c2 = arith.constant 2 : index
    %j = arith.muli %d, %c2 : index
    %v = tensor.extract %t[%j] : tensor<5xf32>
    spmd.yield %v : f32
  }
  return %r : tensor<4xf32>
}
