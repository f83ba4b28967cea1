// RUN: pcc-opt %s --pcc-matmul-to-runtime | FileCheck %s

// CHECK: func.func private @pcc_mlir_matmul_f64(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK: func.func private @pcc_mlir_matmul_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}

// f32 and f64 buffers whose rows are contiguous, slices of a pmap's
// operands included, call the runtime's GEMM.
// CHECK-LABEL: func @calls
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<32x16xf32> to
// CHECK: %[[C:.*]] = memref.cast %arg2 : memref<64x16xf32> to
// CHECK: call @pcc_mlir_matmul_f32(%[[A]], %[[B]], %[[C]])
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

// Integers, strided rows and transposed operands stay linalg (loops).
// CHECK-LABEL: func @stays
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT: call
func.func @stays(%i: memref<4x4xi32>, %s: memref<4x4xf32, strided<[8, 2]>>,
                 %f: memref<4x4xf32>) {
  linalg.matmul ins(%i, %i : memref<4x4xi32>, memref<4x4xi32>)
                outs(%i : memref<4x4xi32>)
  linalg.matmul ins(%s, %f : memref<4x4xf32, strided<[8, 2]>>, memref<4x4xf32>)
                outs(%f : memref<4x4xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%f, %f : memref<4x4xf32>, memref<4x4xf32>)
                outs(%f : memref<4x4xf32>)
  return
}
