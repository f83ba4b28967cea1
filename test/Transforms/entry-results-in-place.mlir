// RUN: pcc-opt %s --split-input-file --pcc-entry-results-in-place | FileCheck %s

// The entry wrapper as bufferization and buffer-results-to-out-params leave
// it: each result is computed into a fresh buffer and copied into its
// out-parameter. The entry computes straight into the out-parameters instead;
// the buffers and copies are gone.
// CHECK-LABEL: func.func @_pcc_entry(
// CHECK-SAME: %[[A:.*]]: memref<4x3xf32>, %[[R0:.*]]: memref<4xf32>, %[[R1:.*]]: memref<4x3xf32>)
// CHECK-NEXT: call @main(%[[A]], %[[R0]], %[[R1]])
// CHECK-NEXT: return
func.func private @main(%a: memref<4x3xf32>, %r0: memref<4xf32>, %r1: memref<4x3xf32>) {
  return
}
func.func @_pcc_entry(%a: memref<4x3xf32>, %r0: memref<4xf32>, %r1: memref<4x3xf32>) attributes {llvm.emit_c_interface} {
  %alloc = memref.alloc() : memref<4xf32>
  %alloc_0 = memref.alloc() : memref<4x3xf32>
  call @main(%a, %alloc, %alloc_0) : (memref<4x3xf32>, memref<4xf32>, memref<4x3xf32>) -> ()
  memref.copy %alloc, %r0 : memref<4xf32> to memref<4xf32>
  memref.copy %alloc_0, %r1 : memref<4x3xf32> to memref<4x3xf32>
  return
}

// -----

// Copies that must stay:
// - from an argument (not a buffer of the wrapper's own),
// - from a buffer that is read after the copy,
// - into an out-parameter that is used elsewhere too,
// - from a buffer of another type (layout) than the out-parameter.
// CHECK-LABEL: func.func @_pcc_entry(
// CHECK-SAME: %[[A:.*]]: memref<4xf32>, %[[R0:.*]]: memref<4xf32>, %[[R1:.*]]: memref<4xf32>, %[[R2:.*]]: memref<4xf32>, %[[R3:.*]]: memref<2x2xf32>)
// CHECK: memref.copy %[[A]], %[[R0]]
// CHECK: %[[READ:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[READ]], %[[R1]]
// CHECK: call @use(%[[READ]])
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[SHARED]], %[[R2]]
// CHECK: call @use(%[[R2]])
// CHECK: %[[OTHER:.*]] = memref.alloc() : memref<2x2xf32, strided<[1, 2]>>
// CHECK: memref.copy %[[OTHER]], %[[R3]]
// CHECK: return
func.func private @use(%b: memref<4xf32>)
func.func @_pcc_entry(%a: memref<4xf32>, %r0: memref<4xf32>, %r1: memref<4xf32>, %r2: memref<4xf32>, %r3: memref<2x2xf32>) attributes {llvm.emit_c_interface} {
  memref.copy %a, %r0 : memref<4xf32> to memref<4xf32>
  %read = memref.alloc() : memref<4xf32>
  memref.copy %read, %r1 : memref<4xf32> to memref<4xf32>
  call @use(%read) : (memref<4xf32>) -> ()
  %shared = memref.alloc() : memref<4xf32>
  memref.copy %shared, %r2 : memref<4xf32> to memref<4xf32>
  call @use(%r2) : (memref<4xf32>) -> ()
  %other = memref.alloc() : memref<2x2xf32, strided<[1, 2]>>
  memref.copy %other, %r3 : memref<2x2xf32, strided<[1, 2]>> to memref<2x2xf32>
  return
}

// -----

// Only the entry wrapper: another function's copies into its arguments are
// writes its caller sees.
// CHECK-LABEL: func.func @helper(
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @helper(%r: memref<4xf32>) {
  %alloc = memref.alloc() : memref<4xf32>
  memref.copy %alloc, %r : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A launch that writes an out-parameter, passed down through calls that
// are each function's only caller and nothing else reads, is marked in its
// returned_outputs; a launch of the same out-parameter read after it, or
// reached through a function called twice, or an input, is not.
// CHECK-LABEL: func.func private @main(
// CHECK: spmd.launch @device devices 2(%{{.*}}) outs(%{{.*}}, %{{.*}}) {returned_outputs = array<i1: false, true>}
// CHECK: spmd.launch @device devices 2(%{{.*}}) outs(%{{.*}}, %{{.*}}) :
// CHECK-LABEL: func.func private @twice(
// CHECK: spmd.launch @device devices 2(%{{.*}}) outs(%{{.*}}, %{{.*}}) :
func.func private @device(%i: i64, %in: memref<2x4xf32>, %o1: memref<2x4xf32>, %o2: memref<2x4xf32>) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  return
}
func.func private @use(%b: memref<2x4xf32>)
func.func private @main(%a: memref<2x4xf32>, %t: memref<2x4xf32>, %r0: memref<2x4xf32>, %r1: memref<2x4xf32>, %r2: memref<2x4xf32>) {
  spmd.launch @device devices 2(%a) outs(%t, %r0) : (memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>)
  spmd.launch @device devices 2(%a) outs(%t, %r1) : (memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>)
  call @use(%r1) : (memref<2x4xf32>) -> ()
  return
}
func.func private @twice(%a: memref<2x4xf32>, %t: memref<2x4xf32>, %r: memref<2x4xf32>) {
  spmd.launch @device devices 2(%a) outs(%t, %r) : (memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>)
  return
}
func.func @_pcc_entry(%a: memref<2x4xf32>, %r0: memref<2x4xf32>, %r1: memref<2x4xf32>, %r2: memref<2x4xf32>, %r3: memref<2x4xf32>) attributes {llvm.emit_c_interface} {
  %t = memref.alloc() : memref<2x4xf32>
  call @main(%a, %t, %r0, %r1, %r2) : (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
  call @twice(%a, %t, %r3) : (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
  call @twice(%a, %t, %r3) : (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
  memref.dealloc %t : memref<2x4xf32>
  return
}
