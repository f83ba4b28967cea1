// Devices 0 and 1 shuffle one way, devices 2 and 3 (in the second of two
// processes) the other: both processes find the mismatch (test/mpi/faults.test).
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x4xf32>) -> (tensor<4x4xf32>) {
    %k = spmd.axis_index "i" : index
    %c2 = arith.constant 2 : index
    %cond = arith.cmpi ult, %k, %c2 : index
    %y = scf.if %cond -> (tensor<4xf32>) {
      %s = spmd.pshuffle %x over "i" perm [1, 2, 3, 0] : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      %s = spmd.pshuffle %x over "i" perm [3, 0, 1, 2] : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<4x4xf32>
}
