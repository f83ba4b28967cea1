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
// CHECK:   func.call @pcc_mlir_check_failed(%{{.*}}, %[[I]], %[[N]], %{{.*}}, %{{.*}})
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

// A slice at a dynamic offset: the offset within the axis (up to its end
// for an empty slice), then the last element within it (with a stride of
// 1, no division).
// CHECK-LABEL: func @insert_slice
// CHECK: arith.cmpi ule, %arg2, %c8
// CHECK: arith.cmpi ult, %arg2, %c8
// CHECK: arith.select
// CHECK: scf.if
// CHECK-NOT: arith.divui
// CHECK: scf.if
// CHECK: tensor.insert_slice
func.func @insert_slice(%a: tensor<8xf32>, %b: tensor<2xf32>, %o: index) -> tensor<8xf32> {
  %r = tensor.insert_slice %b into %a[%o] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// A stride given at run time: the room ahead of the offset (positive
// strides) or behind it (negative ones) divided by the stride.
// CHECK-LABEL: func @dynamic_stride
// CHECK: arith.divui
// CHECK: arith.divui
// CHECK: scf.if
// CHECK: tensor.extract_slice
func.func @dynamic_stride(%a: tensor<8xf32>, %s: index) -> tensor<4xf32> {
  %r = tensor.extract_slice %a[0] [4] [%s] : tensor<8xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// A static slice (checked by the verifier) gets no check.
// CHECK-LABEL: func @static_slice
// CHECK-NOT: scf.if
// CHECK: tensor.extract_slice
func.func @static_slice(%a: tensor<8xf32>) -> tensor<2xf32> {
  %r = tensor.extract_slice %a[6] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}

// A parallel_insert_slice's checks go before the terminator that holds it.
// CHECK-LABEL: func @parallel_insert_slice
// CHECK: scf.forall
// CHECK: scf.if
// CHECK: scf.forall.in_parallel {
// CHECK-NEXT: tensor.parallel_insert_slice
// CHECK-NEXT: }
func.func @parallel_insert_slice(%a: tensor<8xf32>, %o: index) -> tensor<8xf32> {
  %r = scf.forall (%j) in (2) shared_outs(%out = %a) -> (tensor<8xf32>) {
    %p = tensor.extract_slice %out[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %p into %out[%o] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// Operands of an elementwise op, and of a linalg op, whose sizes are known
// at run time only must agree; statically shaped ones are left alone.
// CHECK-LABEL: func @dynamic_operands
// CHECK: tensor.dim %arg0, %c0
// CHECK: tensor.dim %arg1, %c0
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK: arith.addf %arg0, %arg1
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK: linalg.add
// CHECK-NOT: scf.if
// CHECK: arith.mulf %arg2, %arg2
func.func @dynamic_operands(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<4xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<4xf32>) {
  %s = arith.addf %x, %y : tensor<?xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.add ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = arith.mulf %z, %z : tensor<4xf32>
  %r = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  return %s, %r, %m : tensor<?xf32>, tensor<?xf32>, tensor<4xf32>
}

// A loop step given at run time must be positive, and the step past the
// last value must not overflow (computed in twice the width); constant
// bounds and step that pass both are left alone.
// CHECK-LABEL: func @steps
// CHECK: %[[STEP:.*]] = arith.index_cast %arg0 : index to i64
// CHECK: arith.cmpi sgt, %[[STEP]]
// CHECK: scf.if
// CHECK: arith.divui
// CHECK: arith.extsi {{.*}} : i64 to i128
// CHECK: arith.cmpi sle
// CHECK: scf.if
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: scf.for
func.func @steps(%s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %s {
  }
  scf.for %i = %c0 to %c4 step %c1 {
  }
  return
}
