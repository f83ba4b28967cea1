// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-lower-runtime-calls | FileCheck %s

// Each call becomes a call of the runtime function, declared once, that
// takes every buffer as a pointer to its first element: the aligned
// pointer, plus the offset in bytes where there is one (8 bytes per
// element, 4 for f32), and scalars as they are.
// CHECK: func.func private @sum(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-NOT: func.func private @sum
// CHECK-LABEL: func @calls
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[SITE:.*]]: memref<9xi64>, %[[TEXT:.*]]: memref<4xi8>, %[[X:.*]]: memref<6xf32, strided<[1], offset: ?>>, %[[W:.*]]: memref<2x3xf32, strided<[3, 1], offset: 5>>)
// CHECK: ^bb1:
// CHECK: %[[Y:.*]] = memref.alloc() : memref<6xf32>
// CHECK-NEXT: %[[SA:.*]] = memref.extract_aligned_pointer_as_index %[[SITE]]
// CHECK-NEXT: %[[SI:.*]] = arith.index_cast %[[SA]] : index to i64
// CHECK-NEXT: %[[SP:.*]] = llvm.inttoptr %[[SI]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[TA:.*]] = memref.extract_aligned_pointer_as_index %[[TEXT]]
// CHECK-NEXT: %[[TI:.*]] = arith.index_cast %[[TA]] : index to i64
// CHECK-NEXT: %[[TP:.*]] = llvm.inttoptr %[[TI]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[XA:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-NEXT: %{{.*}}, %[[XO:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[XB:.*]] = arith.muli %[[XO]], %[[C4]]
// CHECK-NEXT: %[[XS:.*]] = arith.addi %[[XA]], %[[XB]]
// CHECK-NEXT: %[[XI:.*]] = arith.index_cast %[[XS]] : index to i64
// CHECK-NEXT: %[[XP:.*]] = llvm.inttoptr %[[XI]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[YA:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-NEXT: %[[YI:.*]] = arith.index_cast %[[YA]] : index to i64
// CHECK-NEXT: %[[YP:.*]] = llvm.inttoptr %[[YI]] : i64 to !llvm.ptr
// CHECK-NEXT: call @sum(%[[SP]], %[[TP]], %[[DEV]], %[[XP]], %[[YP]]) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT: spmd.runtime_call
// A static offset: 5 elements of 4 bytes.
// CHECK: %[[WA:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[WB:.*]] = arith.muli %[[C5]], %[[C4B]]
// CHECK-NEXT: arith.addi %[[WA]], %[[WB]]
// CHECK: call @sum(
// CHECK-NOT: spmd.runtime_call
func.func @calls(%device: i64, %site: memref<9xi64>, %text: memref<4xi8>,
                 %x: memref<6xf32, strided<[1], offset: ?>>,
                 %w: memref<2x3xf32, strided<[3, 1], offset: 5>>) {
  cf.br ^bb1
^bb1:
  %y = memref.alloc() : memref<6xf32>
  spmd.runtime_call @sum(%site, %text, %device, %x) outs(%y) {elementwise}
      : (memref<9xi64>, memref<4xi8>, i64, memref<6xf32, strided<[1], offset: ?>>)
        -> memref<6xf32>
  %z = memref.alloc() : memref<2x3xf32>
  spmd.runtime_call @sum(%site, %text, %device, %w) outs(%z)
      : (memref<9xi64>, memref<4xi8>, i64, memref<2x3xf32, strided<[3, 1], offset: 5>>)
        -> memref<2x3xf32>
  memref.dealloc %z : memref<2x3xf32>
  memref.dealloc %y : memref<6xf32>
  return
}

// -----

// An i1 takes a byte.
// CHECK-LABEL: func @bits
// CHECK: %{{.*}}, %[[O:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: arith.muli %[[O]], %[[C1]]
func.func @bits(%device: i64, %x: memref<6xi1, strided<[1], offset: ?>>, %y: memref<6xi1>) {
  spmd.runtime_call @gather(%device, %x) outs(%y)
      : (i64, memref<6xi1, strided<[1], offset: ?>>) -> memref<6xi1>
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
