// RUN: pcc-opt %s --pcc-generate-runtime-checks | FileCheck %s

// Each dynamic index is compared with its axis's size (unsigned: a negative
// index is out of bounds too); the call names both values.
// CHECK-LABEL: func @extract
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[OK:.*]] = arith.cmpi ult, %arg1, %[[DIM]]
// CHECK: %[[FAILED:.*]] = arith.xori %[[OK]], %true
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[I:.*]] = arith.index_cast %arg1 : index to i64
// CHECK:   %[[N:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK:   func.call @pcc_mlir_check_failed(%{{.*}}, %[[I]], %[[N]])
// CHECK: }
// CHECK: tensor.extract %arg0[%arg1]
func.func @extract(%t: tensor<?xf32>, %i: index) -> f32 {
  %v = tensor.extract %t[%i] : tensor<?xf32>
  return %v : f32
}

// A constant index within a static size needs no check.
// CHECK-LABEL: func @constant_index
// CHECK-NOT: scf.if
// CHECK: tensor.insert
func.func @constant_index(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %c3 = arith.constant 3 : index
  %r = tensor.insert %x into %t[%c3] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// Dynamic sizes: not negative, and not so large that the bytes overflow.
// CHECK-LABEL: func @empty
// CHECK: arith.cmpi sge, %arg0, %c0
// CHECK: scf.if
// CHECK: arith.cmpi ule, %arg0
// CHECK: scf.if
// CHECK: tensor.empty(%arg0)
func.func @empty(%n: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%n) : tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// A reshape to a shape known at run time keeps the number of elements.
// CHECK-LABEL: func @reshape
// CHECK-COUNT-2: tensor.extract %arg1
// CHECK: %[[EQUAL:.*]] = arith.cmpi eq
// CHECK: scf.if
// CHECK: tensor.reshape
func.func @reshape(%t: tensor<6xf32>, %shape: tensor<2xindex>) -> tensor<?x?xf32> {
  %r = tensor.reshape %t(%shape) : (tensor<6xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Padding given at run time is not negative.
// CHECK-LABEL: func @pad
// CHECK: arith.cmpi sge, %arg1, %c0
// CHECK: scf.if
// CHECK: tensor.pad
func.func @pad(%t: tensor<4xf32>, %low: index) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %t low[%low] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}

// Sizes that split an axis multiply to its size.
// CHECK-LABEL: func @expand_shape
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0
// CHECK: arith.cmpi eq, %{{.*}}, %[[DIM]]
// CHECK: scf.if
// CHECK: tensor.expand_shape
func.func @expand_shape(%t: tensor<?xf32>, %rows: index) -> tensor<?x2xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%rows, 2] : tensor<?xf32> into tensor<?x2xf32>
  return %e : tensor<?x2xf32>
}

// Static shapes need no check (pcc-verify-closed bounds them).
// CHECK-LABEL: func @static_shapes
// CHECK-NOT: scf.if
// CHECK: return
func.func @static_shapes(%t: tensor<4xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %p : tensor<6xf32>
}
