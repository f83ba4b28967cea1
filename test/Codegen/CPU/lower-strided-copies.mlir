// RUN: pcc-opt %s --pass-pipeline="builtin.module(func.func(pcc-lower-strided-copies))" | FileCheck %s

// memref.copy between contiguous buffers stays (it lowers to memcpy), a
// row of a matrix included; a copy from or into a column, or of a
// dynamically shaped buffer, becomes linalg.copy (loops), instead of a call
// of MLIR's memrefCopy.
// CHECK-LABEL: func.func @copies(
// CHECK-SAME: %[[M:.*]]: memref<4x3xf32>, %[[V:.*]]: memref<4xf32>, %[[W:.*]]: memref<4xf32>, %[[R:.*]]: memref<3xf32>, %[[D:.*]]: memref<?xf32>, %[[E:.*]]: memref<?xf32>, %[[I:.*]]: index)
// CHECK-NEXT: memref.copy %[[V]], %[[W]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: %[[ROW:.*]] = memref.subview %[[M]][%[[I]], 0] [1, 3] [1, 1]
// CHECK-NEXT: memref.copy %[[ROW]], %[[R]] : memref<3xf32, strided<[1], offset: ?>> to memref<3xf32>
// CHECK-NEXT: %[[COLUMN:.*]] = memref.subview %[[M]][0, %[[I]]] [4, 1] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[COLUMN]] : memref<4xf32, strided<[3], offset: ?>>) outs(%[[V]] : memref<4xf32>)
// CHECK-NEXT: linalg.copy ins(%[[V]] : memref<4xf32>) outs(%[[COLUMN]] : memref<4xf32, strided<[3], offset: ?>>)
// CHECK-NEXT: linalg.copy ins(%[[D]] : memref<?xf32>) outs(%[[E]] : memref<?xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @copies(%m: memref<4x3xf32>, %v: memref<4xf32>, %w: memref<4xf32>, %r: memref<3xf32>, %d: memref<?xf32>, %e: memref<?xf32>, %i: index) {
  memref.copy %v, %w : memref<4xf32> to memref<4xf32>
  %row = memref.subview %m[%i, 0] [1, 3] [1, 1] : memref<4x3xf32> to memref<3xf32, strided<[1], offset: ?>>
  memref.copy %row, %r : memref<3xf32, strided<[1], offset: ?>> to memref<3xf32>
  %column = memref.subview %m[0, %i] [4, 1] [1, 1] : memref<4x3xf32> to memref<4xf32, strided<[3], offset: ?>>
  memref.copy %column, %v : memref<4xf32, strided<[3], offset: ?>> to memref<4xf32>
  memref.copy %v, %column : memref<4xf32> to memref<4xf32, strided<[3], offset: ?>>
  memref.copy %d, %e : memref<?xf32> to memref<?xf32>
  return
}
