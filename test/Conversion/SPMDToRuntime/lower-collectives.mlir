// Call-site strings print as lists of bytes, however long the path is.
// RUN: pcc-opt %s --pcc-lower-collectives --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s

// A device function as pcc-outline-pmaps makes it, on a 2 x 3 grid. Each
// call site's facts are a constant (pcc_collective_site): kind, element
// type (f32: 6), reduction, element count, a hash of the shape, the axes,
// the size of the table, then the grid's rank and sizes.
// CHECK-DAG: memref.global "private" constant @_pcc_device_collective : memref<10xi64> = dense<[0, 6, 0, 8, {{-?[0-9]+}}, 2, 0, 2, 2, 3]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_device_collective{{.*}} : memref<10xi64> = dense<[0, 6, 2, 1, {{-?[0-9]+}}, 3, 0, 2, 2, 3]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_device_collective{{.*}} : memref<10xi64> = dense<[1, 6, 0, 8, {{-?[0-9]+}}, 3, 0, 2, 2, 3]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_device_table : memref<0xi64> = dense<> {pcc.host_only}

// CHECK-LABEL: func private @device
// CHECK-SAME: (%[[DEV:.*]]: i64
func.func private @device(%device: i64, %x: tensor<4x2xf32>, %s: f32)
    -> (index, tensor<4x2xf32>, f32, tensor<4x6x2xf32>, tensor<4x6xf32>)
    attributes {spmd.grid_axes = ["i", "j"], spmd.grid_sizes = array<i64: 2, 3>} {
  // CHECK-DAG: %[[PSUM:.*]] = memref.get_global @_pcc_device_collective : memref<10xi64>
  // CHECK-DAG: %[[NONE:.*]] = memref.get_global @_pcc_device_table : memref<0xi64>
  // CHECK: %[[D:.*]] = arith.index_cast %[[DEV]] : i64 to index

  // Linear index over ["j", "i"]: j * 2 + i.
  // CHECK: %[[JQ:.*]] = arith.divui %[[D]], %c1
  // CHECK: %[[J:.*]] = arith.remui %[[JQ]], %c3
  // CHECK: %[[IQ:.*]] = arith.divui %[[D]], %c3
  // CHECK: %[[I:.*]] = arith.remui %[[IQ]], %c2
  // CHECK: %[[JS:.*]] = arith.muli %[[J]], %c2
  // CHECK: arith.addi %[[JS]], %[[I]]
  %k = spmd.axis_index ["j", "i"] : index

  // psum over "j" (grid axis 1: mask 2), sum = reduction 0, in
  // destination-passing style: into an empty tensor, and `elementwise`, so
  // that it may be written in place of its input (where
  // pcc-reuse-loop-buffers gives it a loop's value to write).
  // CHECK: %[[E0:.*]] = tensor.empty() : tensor<4x2xf32>
  // CHECK: spmd.runtime_call @pcc_collective(%[[PSUM]], %[[NONE]], %[[SITE:.*]], %[[DEV]], %[[X:.*]]) outs(%[[E0]]) {elementwise}
  // CHECK-SAME: : (memref<10xi64>, memref<0xi64>, memref<{{[0-9]+}}xi8>, i64, tensor<4x2xf32>) -> tensor<4x2xf32> -> tensor<4x2xf32>
  %sum = spmd.psum %x over "j" : tensor<4x2xf32>

  // A scalar pmin (reduction 2) over both axes (mask 3) goes through a
  // rank-0 tensor.
  // CHECK: %[[S:.*]] = tensor.from_elements %{{.*}} : tensor<f32>
  // CHECK: %[[MIN:.*]] = spmd.runtime_call @pcc_collective(%{{.*}}, %[[NONE]], %{{.*}}, %[[DEV]], %[[S]]) outs(%{{.*}})
  // CHECK: tensor.extract %[[MIN]][] : tensor<f32>
  %min = spmd.pmin %s over ["i", "j"] : f32

  // all_gather axis 1: stack at 0 into an empty tensor, then transpose.
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<6x4x2xf32>
  // CHECK: %[[GT:.*]] = spmd.runtime_call @pcc_collective(%{{.*}}, %[[NONE]], %{{.*}}, %[[DEV]], %[[X]]) outs(%[[E]])
  // CHECK-NOT: elementwise
  // CHECK: linalg.transpose ins(%[[GT]] : tensor<6x4x2xf32>) outs(%{{.*}} : tensor<4x6x2xf32>) permutation = [1, 0, 2]
  %g = spmd.all_gather %x over ["i", "j"] axis 1 : tensor<4x2xf32> -> tensor<4x6x2xf32>

  // tiled along axis 1: transpose, then merge dims 1 and 2.
  // CHECK: linalg.transpose ins(%{{.*}} : tensor<3x4x2xf32>) outs(%{{.*}} : tensor<4x3x2xf32>) permutation = [1, 0, 2]
  // CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<4x3x2xf32> into tensor<4x6xf32>
  %t = spmd.all_gather %x over "j" axis 1 tiled : tensor<4x2xf32> -> tensor<4x6xf32>
  return %k, %sum, %min, %g, %t : index, tensor<4x2xf32>, f32, tensor<4x6x2xf32>, tensor<4x6xf32>
}

// A result that is only stored into the pmap's result slice goes into an
// empty tensor, which empty-tensor elimination can then replace by the slice;
// so does a gather tiled along axis 0, which needs no reshaping at all.
// Each collective names itself and its source location for the runtime's
// error messages, in a NUL-terminated string.
// CHECK: memref.global "private" constant @_pcc_in_place_site : memref<{{[0-9]+}}xi8> = dense<[115, 112, 109, 100, 46, 112, 115, 117, 109, 32, 111, 118, 101, 114, 32, 34, 105, 34, 32, 58, 32, 116, 101, 110, 115, 111, 114, 60, 56, 120, 102, 51, 50, 62, 32, 97, 116, 32, {{.*}}, 0]>
// CHECK-LABEL: func private @in_place
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[X:.*]]: tensor<8xf32>, %[[R:.*]]: memref<2x8xf32>, %[[G:.*]]: memref<2x16xf32>)
func.func private @in_place(%device: i64, %x: tensor<8xf32>,
                            %r: memref<2x8xf32>, %g: memref<2x16xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  %i = arith.index_cast %device : i64 to index
  // CHECK: %[[SITE:.*]] = memref.get_global @_pcc_in_place_site :
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
  // CHECK: %[[SUM:.*]] = spmd.runtime_call @pcc_collective(%{{.*}}, %{{.*}}, %[[SITE]], %[[DEV]], %[[X]]) outs(%[[E]])
  // CHECK: bufferization.materialize_in_destination %[[SUM]]
  %sum = spmd.psum %x over "i" : tensor<8xf32>
  %rs = memref.subview %r[%i, 0] [1, 8] [1, 1]
      : memref<2x8xf32> to memref<8xf32, strided<[1], offset: ?>>
  bufferization.materialize_in_destination %sum in restrict writable %rs
      : (tensor<8xf32>, memref<8xf32, strided<[1], offset: ?>>) -> ()

  // CHECK: %[[E2:.*]] = tensor.empty() : tensor<16xf32>
  // CHECK: %[[T:.*]] = spmd.runtime_call @pcc_collective({{.*}}, %[[X]]) outs(%[[E2]]) : {{.*}} -> tensor<16xf32> -> tensor<16xf32>
  // CHECK-NEXT: memref.subview
  // CHECK-NEXT: bufferization.materialize_in_destination %[[T]]
  %t = spmd.all_gather %x over "i" tiled : tensor<8xf32> -> tensor<16xf32>
  %gs = memref.subview %g[%i, 0] [1, 16] [1, 1]
      : memref<2x16xf32> to memref<16xf32, strided<[1], offset: ?>>
  bufferization.materialize_in_destination %t in restrict writable %gs
      : (tensor<16xf32>, memref<16xf32, strided<[1], offset: ?>>) -> ()
  return
}

// The data-movement collectives, and groups: tables of constants that the
// runtime reads (pcc_runtime.h), one global per distinct content.
// CHECK-DAG: memref.global "private" constant @[[GROUPS:_pcc_movement_table[_0-9]*]] : memref<16xi64> = dense<[2, 0, 1, 3, 1, 2, 0, 3, 0, 2, 0, 2, 2, 2, 2, 2]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @[[SOURCES:_pcc_movement_table[_0-9]*]] : memref<4xi64> = dense<[3, 0, 1, -1]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_movement_table{{.*}} : memref<4xi64> = dense<2> {pcc.host_only}
// psum with a groups table of 16 entries; psum_scatter (kind 2) and
// all_to_all (kind 3) of 4 parts of 2x3; the permutes (kind 4) with a
// sources table of 4 entries.
// CHECK-DAG: memref.global "private" constant @[[PSUM:_pcc_movement_collective[_0-9]*]] : memref<9xi64> = dense<[0, 6, 0, 24, {{-?[0-9]+}}, 1, 16, 1, 4]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_movement_collective{{.*}} : memref<9xi64> = dense<[2, 6, 0, 24, {{-?[0-9]+}}, 1, 0, 1, 4]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @_pcc_movement_collective{{.*}} : memref<9xi64> = dense<[3, 6, 0, 24, {{-?[0-9]+}}, 1, 0, 1, 4]> {pcc.host_only}
// CHECK-DAG: memref.global "private" constant @[[PERMUTE:_pcc_movement_collective[_0-9]*]] : memref<9xi64> = dense<[4, 6, 0, 24, {{-?[0-9]+}}, 1, 4, 1, 4]> {pcc.host_only}
// CHECK-LABEL: func private @movement
func.func private @movement(%device: i64, %x: tensor<8x3xf32>)
    -> (tensor<8x3xf32>, tensor<2x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x12xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  // groups [[2, 0], [1, 3]]: members 2 0 1 3; positions of 0..3 in that
  // list: 1 2 0 3; where each one's group starts: 0 2 0 2; sizes: all 2.
  // CHECK-DAG: %[[PSUM_SITE:.*]] = memref.get_global @[[PSUM]] :
  // CHECK-DAG: %[[GROUPS_TABLE:.*]] = memref.get_global @[[GROUPS]] :
  // CHECK-DAG: %[[PERMUTE_SITE:.*]] = memref.get_global @[[PERMUTE]] :
  // CHECK-DAG: %[[SOURCES_TABLE:.*]] = memref.get_global @[[SOURCES]] :
  // CHECK: spmd.runtime_call @pcc_collective(%[[PSUM_SITE]], %[[GROUPS_TABLE]],
  %g = spmd.psum %x over "i" groups [[2, 0], [1, 3]] : tensor<8x3xf32>
  // Parts split along dimension 0 and passed as they are.
  // CHECK: %[[PARTS:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [4, 2, 3] : tensor<8x3xf32> into tensor<4x2x3xf32>
  // CHECK: spmd.runtime_call @pcc_collective(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PARTS]])
  // CHECK-SAME: -> tensor<2x3xf32> -> tensor<2x3xf32>
  %rs = spmd.psum_scatter %x over "i" tiled : tensor<8x3xf32> -> tensor<2x3xf32>
  // Device 0 receives from 3, 1 from 0, 2 from 1, 3 from nobody.
  // CHECK: spmd.runtime_call @pcc_collective(%[[PERMUTE_SITE]], %[[SOURCES_TABLE]], %{{.*}}, %{{.*}}, %{{.*}}) outs
  %p = spmd.ppermute %x over "i" perm [[3, 0], [0, 1], [1, 2]] : tensor<8x3xf32>
  // CHECK: spmd.runtime_call @pcc_collective(%[[PERMUTE_SITE]],
  %b = spmd.pbroadcast %x over "i" from 2 : tensor<8x3xf32>
  // Chunks as parts; the received ones stacked at 0, moved to 1, merged.
  // CHECK: spmd.runtime_call @pcc_collective({{.*}}) outs({{.*}}) : {{.*}} -> tensor<4x2x3xf32> -> tensor<4x2x3xf32>
  // CHECK: linalg.transpose ins(%{{.*}} : tensor<4x2x3xf32>) outs(%{{.*}} : tensor<2x4x3xf32>) permutation = [1, 0, 2]
  // CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<2x4x3xf32> into tensor<2x12xf32>
  %a = spmd.all_to_all %x over "i" split 0 concat 1 tiled : tensor<8x3xf32> -> tensor<2x12xf32>
  return %g, %rs, %p, %b, %a : tensor<8x3xf32>, tensor<2x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x12xf32>
}
