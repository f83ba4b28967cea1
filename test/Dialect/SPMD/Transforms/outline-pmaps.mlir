// RUN: pcc-opt %s --pcc-outline-pmaps | FileCheck %s

// The pmap becomes a launch of a device function, in destination-passing
// style on tensors (bufferization places them). Captured scalars go
// through a stack slot made once, in the entry block.
// CHECK-LABEL: func @simple
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32>, %[[W:.*]]: f32)
// CHECK: %[[SCALAR:.*]] = memref.alloca() : memref<f32>
// CHECK: memref.store %[[W]], %[[SCALAR]][]
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[R:.*]] = spmd.launch @simple_pmap devices 4(%[[A]], %[[SCALAR]]) outs(%[[INIT]])
// CHECK-SAME: : (tensor<4x3xf32>, memref<f32>) -> tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK: return %[[R]]
func.func @simple(%a: tensor<4x3xf32>, %w: f32) -> tensor<4x3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    %s = spmd.psum %x over "i" : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %f = linalg.fill ins(%w : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %y = arith.addf %s, %f : tensor<3xf32>
    spmd.yield %y : tensor<3xf32>
  }
  return %r : tensor<4x3xf32>
}

// CHECK-LABEL: func private @simple_pmap
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[A:.*]]: memref<4x3xf32>, %[[W:.*]]: memref<f32>, %[[O:.*]]: memref<4x3xf32>)
// CHECK-SAME: llvm.emit_c_interface, spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>
// The output is read as a tensor first, the device's part is inserted into
// it, and the whole is stored back into the output (in place: bufferization
// sees each write into the output, and the body can compute straight into
// its slice).
// CHECK: %[[OUT:.*]] = bufferization.to_tensor %[[O]] restrict writable : memref<4x3xf32>
// CHECK: %[[I:.*]] = spmd.axis_index "i" : index
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]] restrict : memref<4x3xf32>
// CHECK: %[[X:.*]] = tensor.extract_slice %[[T]][%[[I]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
// CHECK: memref.load %[[W]][]
// CHECK: spmd.psum %[[X]] over "i"
// CHECK: %[[Y:.*]] = arith.addf
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[Y]] into %[[OUT]][%[[I]], 0] [1, 3] [1, 1]
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[O]]
// CHECK: return


// A nested pmap is flattened: its operands are sliced at its axis index,
// its results gathered over its axis, and only devices with inner index 0
// write the outer result.
// CHECK-LABEL: func @nested
// CHECK: spmd.launch @nested_pmap devices 6
func.func @nested(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %r = spmd.pmap "i" (%row = %a : tensor<2x3xi32>) -> (tensor<2x3xi32>) {
    %s = spmd.pmap "j" (%x = %row : tensor<3xi32>) -> (tensor<3xi32>) {
      %t = spmd.psum %x over ["i", "j"] : tensor<i32>
      spmd.yield %t : tensor<i32>
    }
    spmd.yield %s : tensor<3xi32>
  }
  return %r : tensor<2x3xi32>
}

// CHECK-LABEL: func private @nested_pmap
// CHECK-SAME: spmd.grid_axes = ["i", "j"], spmd.grid_sizes = array<i64: 2, 3>
// CHECK: %[[I:.*]] = spmd.axis_index "i" : index
// CHECK: %[[ROW:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [1, 3] [1, 1] : tensor<2x3xi32> to tensor<3xi32>
// CHECK: %[[J:.*]] = spmd.axis_index "j" : index
// CHECK: %[[X:.*]] = tensor.extract_slice %[[ROW]][%[[J]]] [1] [1] : tensor<3xi32> to tensor<i32>
// CHECK: %[[T:.*]] = spmd.psum %[[X]] over ["i", "j"] : tensor<i32>
// CHECK: %[[G:.*]] = spmd.all_gather %[[T]] over "j" : tensor<i32> -> tensor<3xi32>
// CHECK: %[[INNER:.*]] = spmd.axis_index "j" : index
// CHECK: %[[WRITER:.*]] = arith.cmpi eq, %[[INNER]], %{{.*}} : index
// CHECK: %[[NEW:.*]] = scf.if %[[WRITER]] -> (tensor<2x3xi32>) {
// CHECK:   %[[INSERTED:.*]] = tensor.insert_slice %[[G]] into %[[OUT:.*]][%[[I]], 0] [1, 3] [1, 1]
// CHECK:   scf.yield %[[INSERTED]]
// CHECK: } else {
// CHECK:   scf.yield %[[OUT]]
// CHECK: }
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable
// CHECK: return
