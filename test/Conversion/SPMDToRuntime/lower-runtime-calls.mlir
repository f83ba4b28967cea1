// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-lower-runtime-calls | FileCheck %s

// Each call becomes a func.call through the C interface, buffers as
// unranked memrefs. A buffer that several calls take and that is defined in
// the entry block is cast once, there; the others are cast in a stack scope
// of the call's own, which frees their descriptors when the call returns (a
// call in a loop must not grow the stack). The callee is declared once.
// CHECK: func.func private @sum(i64, memref<*xi64>, memref<*xi8>, memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
// CHECK-NOT: func.func private @sum
// CHECK-LABEL: func @calls
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[GRID:.*]]: memref<1xi64>, %[[SITE:.*]]: memref<4xi8>, %[[X:.*]]: memref<6xf32, strided<[1], offset: ?>>)
// CHECK-DAG: %[[G:.*]] = memref.cast %[[GRID]] : memref<1xi64> to memref<*xi64>
// CHECK-DAG: %[[S:.*]] = memref.cast %[[SITE]] : memref<4xi8> to memref<*xi8>
// CHECK: ^bb1:
// CHECK: %[[Y:.*]] = memref.alloc() : memref<6xf32>
// CHECK: memref.alloca_scope {
// CHECK-NEXT: %[[XC:.*]] = memref.cast %[[X]] : memref<6xf32, strided<[1], offset: ?>> to memref<*xf32>
// CHECK-NEXT: %[[YC:.*]] = memref.cast %[[Y]] : memref<6xf32> to memref<*xf32>
// CHECK-NEXT: func.call @sum(%[[DEV]], %[[G]], %[[S]], %[[XC]], %[[YC]])
// CHECK-NEXT: }
// CHECK: memref.alloca_scope {
// CHECK-NEXT: %[[IN:.*]] = memref.cast %[[Y]]
// CHECK-NEXT: %[[OUT:.*]] = memref.cast %[[Y]]
// CHECK-NEXT: func.call @sum(%[[DEV]], %[[G]], %[[S]], %[[IN]], %[[OUT]])
// CHECK-NOT: spmd.runtime_call
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
  memref.dealloc %y : memref<6xf32>
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
