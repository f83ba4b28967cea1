// Two inner pmaps side by side in one body, with different axis names: each
// adds an axis to the grid, which has 2 x 3 x 2 = 12 devices. Device
// (i, j) of the first yields the sum over "j" of 10*i + j; device (i, k) of
// the second the largest i + k over both of its axes.
func.func @main() -> (tensor<2x3xi32>, tensor<2x2xi32>) {
  %r:2 = spmd.pmap "i" size 2 -> (tensor<2x3xi32>, tensor<2x2xi32>) {
    %a = spmd.pmap "j" size 3 -> (tensor<3xi32>) {
      %i = spmd.axis_index "i" : index
      %j = spmd.axis_index "j" : index
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %i32, %ten : i32
      %v = arith.addi %t, %j32 : i32
      %s = spmd.psum %v over "j" : i32
      spmd.yield %s : i32
    }
    %b = spmd.pmap "k" size 2 -> (tensor<2xi32>) {
      %i = spmd.axis_index "i" : index
      %k = spmd.axis_index "k" : index
      %ik = arith.addi %i, %k : index
      %v = arith.index_cast %ik : index to i32
      %m = spmd.pmax %v over ["i", "k"] : i32
      spmd.yield %m : i32
    }
    spmd.yield %a, %b : tensor<3xi32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<2x3xi32>, tensor<2x2xi32>
}
