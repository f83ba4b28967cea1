// RUN: pcc-opt %s --pcc-matmul-to-runtime | FileCheck %s

// CHECK: func.func private @pcc_mlir_matmul_f64(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i32) attributes {llvm.emit_c_interface}
// CHECK: func.func private @pcc_mlir_matmul_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i32) attributes {llvm.emit_c_interface}

// f32 and f64 buffers whose rows are contiguous, slices of a pmap's
// operands included, call the runtime's GEMM.
// CHECK-LABEL: func @calls
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<32x16xf32> to
// CHECK: %[[C:.*]] = memref.cast %arg2 : memref<64x16xf32> to
// CHECK: %[[ADD:.*]] = arith.constant 1 : i32
// CHECK: call @pcc_mlir_matmul_f32(%[[A]], %[[B]], %[[C]], %[[ADD]])
// CHECK: call @pcc_mlir_matmul_f64
// CHECK-NOT: linalg.matmul
func.func @calls(%a: memref<64x32xf32, strided<[32, 1], offset: ?>>,
                 %b: memref<32x16xf32>, %c: memref<64x16xf32>,
                 %d: memref<8x8xf64>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32, strided<[32, 1], offset: ?>>, memref<32x16xf32>)
                outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%d, %d : memref<8x8xf64>, memref<8x8xf64>)
                outs(%d : memref<8x8xf64>)
  return
}

// Operands that the indexing maps transpose are passed as transposed views,
// as are buffers whose columns are contiguous.
// CHECK-LABEL: func @transposed
// CHECK: %[[AT:.*]] = memref.transpose %arg0 (d0, d1) -> (d1, d0) : memref<32x64xf32> to memref<64x32xf32, strided<[1, 64]>>
// CHECK: %[[BT:.*]] = memref.transpose %arg1 (d0, d1) -> (d1, d0) : memref<16x32xf32> to memref<32x16xf32, strided<[1, 32]>>
// CHECK: %[[A:.*]] = memref.cast %[[AT]]
// CHECK: %[[B:.*]] = memref.cast %[[BT]]
// CHECK: %[[C:.*]] = memref.cast %arg2
// CHECK: call @pcc_mlir_matmul_f32(%[[A]], %[[B]], %[[C]], %{{.*}})
// CHECK: %[[D:.*]] = memref.cast %arg3 : memref<4x8xf32, strided<[1, 4]>> to
// CHECK: call @pcc_mlir_matmul_f32(%[[D]],
// CHECK-NOT: linalg.matmul
func.func @transposed(%a: memref<32x64xf32>, %b: memref<16x32xf32>,
                      %c: memref<64x16xf32>,
                      %d: memref<4x8xf32, strided<[1, 4]>>,
                      %e: memref<8x4xf32>, %f: memref<4x4xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%a, %b : memref<32x64xf32>, memref<16x32xf32>)
                outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%d, %e : memref<4x8xf32, strided<[1, 4]>>, memref<8x4xf32>)
                outs(%f : memref<4x4xf32>)
  return
}

// Integers, operands strided both ways, a result whose rows are not
// contiguous and broadcast maps stay linalg (loops).
// CHECK-LABEL: func @stays
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT: call
func.func @stays(%i: memref<4x4xi32>, %s: memref<4x4xf32, strided<[8, 2]>>,
                 %f: memref<4x4xf32>, %t: memref<4x4xf32, strided<[1, 4]>>,
                 %v: memref<4xf32>) {
  linalg.matmul ins(%i, %i : memref<4x4xi32>, memref<4x4xi32>)
                outs(%i : memref<4x4xi32>)
  linalg.matmul ins(%s, %f : memref<4x4xf32, strided<[8, 2]>>, memref<4x4xf32>)
                outs(%f : memref<4x4xf32>)
  linalg.matmul ins(%f, %f : memref<4x4xf32>, memref<4x4xf32>)
                outs(%t : memref<4x4xf32, strided<[1, 4]>>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%v, %f : memref<4xf32>, memref<4x4xf32>)
                outs(%f : memref<4x4xf32>)
  return
}

// A matmul right after a fill of its result with +0.0 writes its product
// over the result (0: BLAS's beta = 0) and the fill goes, allocations and
// frees of other buffers between them or not. Anything else that touches
// memory between them, a fill with another value (-0.0 included) or of
// another buffer keeps the fill, and the product is added (1).
// CHECK-LABEL: func @overwrites
// CHECK-NOT: linalg.fill
// CHECK: %[[OVER:.*]] = arith.constant 0 : i32
// CHECK: call @pcc_mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[OVER]])
// CHECK-NOT: linalg.fill
// CHECK: %[[OVER2:.*]] = arith.constant 0 : i32
// CHECK: call @pcc_mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[OVER2]])
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @overwrites(%a: memref<4x4xf32>, %c: memref<4x4xf32>,
                      %d: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>)
                outs(%c : memref<4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%d : memref<4x4xf32>)
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  %v = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>)
                outs(%d : memref<4x4xf32>)
  return
}

// CHECK-LABEL: func @accumulates
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg1
// CHECK: memref.store
// CHECK: %[[ADD:.*]] = arith.constant 1 : i32
// CHECK: call @pcc_mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ADD]])
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg1
// CHECK: %[[ADD2:.*]] = arith.constant 1 : i32
// CHECK: call @pcc_mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ADD2]])
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2
// CHECK: %[[ADD3:.*]] = arith.constant 1 : i32
// CHECK: call @pcc_mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ADD3]])
func.func @accumulates(%a: memref<4x4xf32>, %c: memref<4x4xf32>,
                       %d: memref<4x4xf32>, %i: index, %x: f32) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  memref.store %x, %a[%i, %i] : memref<4x4xf32>
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>)
                outs(%c : memref<4x4xf32>)
  linalg.fill ins(%negzero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>)
                outs(%c : memref<4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%d : memref<4x4xf32>)
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>)
                outs(%c : memref<4x4xf32>)
  return
}
