// RUN: pcc-opt %s --split-input-file --pcc-copy-repeated-results | FileCheck %s

// Each repeat of a returned buffer gets a copy of its own; the first
// position keeps the buffer, and so does a buffer returned once.
// CHECK-LABEL: func.func private @twice(
// CHECK-SAME: %[[B:.*]]: memref<2x4xf32>)
// CHECK:      %[[A:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NEXT: %[[C1:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C1]]
// CHECK-NEXT: %[[C2:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C2]]
// CHECK-NEXT: return %[[A]], %[[B]], %[[C1]], %[[C2]]
func.func private @twice(%b: memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) {
  %a = memref.alloc() : memref<2x4xf32>
  return %a, %b, %a, %a : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>
}

// -----

// Dynamic sizes are read from the buffer; a layout other than the identity
// is cast to, from a copy with the identity layout.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[B:.*]]: memref<?x4xf32, strided<[?, 1], offset: ?>>)
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = memref.dim %[[B]], %[[C0]]
// CHECK-NEXT: %[[C:.*]] = memref.alloc(%[[D]]) : memref<?x4xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %[[C]] : memref<?x4xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: return %[[B]], %[[CAST]]
func.func @dynamic(%b: memref<?x4xf32, strided<[?, 1], offset: ?>>) -> (memref<?x4xf32, strided<[?, 1], offset: ?>>, memref<?x4xf32, strided<[?, 1], offset: ?>>) {
  return %b, %b : memref<?x4xf32, strided<[?, 1], offset: ?>>, memref<?x4xf32, strided<[?, 1], offset: ?>>
}

// -----

// Scalars returned twice are left alone.
// CHECK-LABEL: func.func @scalars(
// CHECK-NEXT: return %arg0, %arg0 : f32, f32
func.func @scalars(%x: f32) -> (f32, f32) {
  return %x, %x : f32, f32
}
