// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-lower-runtime-calls | FileCheck %s

// Each call becomes a call of a stub, one per callee and signature: the call
// site casts its buffers to fully dynamic memrefs (so that buffers of other
// shapes share the stub), the stub casts them to unranked memrefs for the C
// interface (their descriptors live in the stub's frame, freed when it
// returns: a call in a loop must not grow the stack) and stays out of line.
// The callee is declared once.
// CHECK: func.func private @sum(i64, memref<*xi64>, memref<*xi8>, memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
// CHECK-NOT: func.func private @sum
// CHECK-LABEL: func @calls
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[GRID:.*]]: memref<1xi64>, %[[SITE:.*]]: memref<4xi8>, %[[X:.*]]: memref<6xf32, strided<[1], offset: ?>>)
// CHECK: ^bb1:
// CHECK: %[[Y:.*]] = memref.alloc() : memref<6xf32>
// CHECK-NEXT: %[[G:.*]] = memref.cast %[[GRID]] : memref<1xi64> to memref<?xi64, strided<[?], offset: ?>>
// CHECK-NEXT: %[[S:.*]] = memref.cast %[[SITE]] : memref<4xi8> to memref<?xi8, strided<[?], offset: ?>>
// CHECK-NEXT: %[[XC:.*]] = memref.cast %[[X]] : memref<6xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: %[[YC:.*]] = memref.cast %[[Y]] : memref<6xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: call @_pcc_call_sum_0(%[[DEV]], %[[G]], %[[S]], %[[XC]], %[[YC]])
// CHECK-NOT: memref.alloca_scope
// CHECK: call @_pcc_call_sum_0(%[[DEV]],
// CHECK-NOT: spmd.runtime_call
// CHECK: call @_pcc_call_sum_0(%[[DEV]],
// CHECK-NOT: spmd.runtime_call
// CHECK-LABEL: func.func private @_pcc_call_sum_0
// CHECK-SAME: (%[[D:.*]]: i64, %[[A1:.*]]: memref<?xi64, strided<[?], offset: ?>>, %[[A2:.*]]: memref<?xi8, strided<[?], offset: ?>>, %[[A3:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[A4:.*]]: memref<?xf32, strided<[?], offset: ?>>)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[U1:.*]] = memref.cast %[[A1]] : memref<?xi64, strided<[?], offset: ?>> to memref<*xi64>
// CHECK-NEXT: %[[U2:.*]] = memref.cast %[[A2]]
// CHECK-NEXT: %[[U3:.*]] = memref.cast %[[A3]]
// CHECK-NEXT: %[[U4:.*]] = memref.cast %[[A4]]
// CHECK-NEXT: call @sum(%[[D]], %[[U1]], %[[U2]], %[[U3]], %[[U4]])
// CHECK-NEXT: return
// CHECK-NOT: func.func private @_pcc_call_sum_1
func.func @calls(%device: i64, %grid: memref<1xi64>, %site: memref<4xi8>,
                 %x: memref<6xf32, strided<[1], offset: ?>>) {
  cf.br ^bb1
^bb1:
  %y = memref.alloc() : memref<6xf32>
  spmd.runtime_call @sum(%device, %grid, %site, %x) outs(%y) {elementwise}
      : (i64, memref<1xi64>, memref<4xi8>, memref<6xf32, strided<[1], offset: ?>>)
        -> memref<6xf32>
  spmd.runtime_call @sum(%device, %grid, %site, %y) outs(%y) {elementwise}
      : (i64, memref<1xi64>, memref<4xi8>, memref<6xf32>) -> memref<6xf32>
  // Another shape, the same stub.
  %z = memref.alloc() : memref<9xf32>
  spmd.runtime_call @sum(%device, %grid, %site, %z) outs(%z) {elementwise}
      : (i64, memref<1xi64>, memref<4xi8>, memref<9xf32>) -> memref<9xf32>
  memref.dealloc %z : memref<9xf32>
  memref.dealloc %y : memref<6xf32>
  return
}

// -----

// Buffers of other ranks or element types: a stub each, one declaration.
// CHECK-LABEL: func @ranks
// CHECK: call @_pcc_call_gather_0(
// CHECK: call @_pcc_call_gather_1(
// CHECK: call @_pcc_call_gather_0(
// CHECK-LABEL: func.func private @_pcc_call_gather_0
// CHECK-SAME: memref<?xf32, strided<[?], offset: ?>>
// CHECK-LABEL: func.func private @_pcc_call_gather_1
// CHECK-SAME: memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func private @gather(i64, memref<*xf32>)

func.func @ranks(%device: i64, %x: memref<6xf32>, %y: memref<2x3xf32>, %w: memref<9xf32>) {
  spmd.runtime_call @gather(%device) outs(%x) : (i64) -> memref<6xf32>
  spmd.runtime_call @gather(%device) outs(%y) : (i64) -> memref<2x3xf32>
  spmd.runtime_call @gather(%device) outs(%w) : (i64) -> memref<9xf32>
  return
}

// -----

func.func @on_tensors(%device: i64, %x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'spmd.runtime_call' op must be bufferized before it is lowered to a call}}
  %s = spmd.runtime_call @sum(%device, %x) outs(%x)
      : (i64, tensor<6xf32>) -> tensor<6xf32> -> tensor<6xf32>
  return %s : tensor<6xf32>
}

// -----

func.func private @sum(i64, memref<*xf32>)

func.func @other_signature(%device: i64, %x: memref<6xf32>, %y: memref<6xf32>) {
  // expected-error @+1 {{'spmd.runtime_call' op calls @sum with arguments that do not match its earlier declaration}}
  spmd.runtime_call @sum(%device, %x) outs(%y)
      : (i64, memref<6xf32>) -> memref<6xf32>
  return
}
