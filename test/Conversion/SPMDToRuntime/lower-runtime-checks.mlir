// RUN: pcc-opt %s --pcc-lower-runtime-checks --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s

// A failed check calls the runtime with where and what: the assertion's
// location, the op it guards, and what upstream's message says failed; the
// values of the call are not used.
// CHECK: func.func private @pcc_mlir_check_failed(memref<*xi8>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK: memref.global "private" constant @_pcc_check : memref<{{[0-9]+}}xi8> = dense<[112, 114, 111, 103, 46, 109, 108, 105, 114, 58, 55, 58, 49, 48, 58, 32, 39, 116, 101, 110, 115, 111, 114, 46, 99, 97, 115, 116, 39, 58, 32, 115, 105, 122, 101, 32, 109, 105, 115, 109, 97, 116, 99, 104, 32, 111, 102, 32, 100, 105, 109, 32, 48, 0]> {pcc.host_only}
// (that is "prog.mlir:7:10: 'tensor.cast': size mismatch of dim 0")

// CHECK-LABEL: func @guarded
// CHECK: %[[FAILED:.*]] = arith.xori %arg1, %true
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[M:.*]] = memref.get_global @_pcc_check
// CHECK:   %[[U:.*]] = memref.cast %[[M]] : memref<{{[0-9]+}}xi8> to memref<*xi8>
// CHECK:   %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:   func.call @pcc_mlir_check_failed(%[[U]], %[[ZERO]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: }
// CHECK-NOT: cf.assert
// CHECK: tensor.cast
func.func @guarded(%t: tensor<?xf32>, %ok: i1) -> tensor<4xf32> {
  cf.assert %ok, "ERROR: Runtime op verification failed\0A%0 = tensor.cast ...\0A^ size mismatch of dim 0\0ALocation: loc(\22prog.mlir\22:7:10)" loc("prog.mlir":7:10)
  %v = tensor.cast %t : tensor<?xf32> to tensor<4xf32> loc("prog.mlir":7:10)
  return %v : tensor<4xf32>
}

// -----

// Upstream's checks of tensor.extract, tensor.insert and
// tensor.extract_slice are dropped: pcc-generate-runtime-checks makes its
// own, with the values.
// CHECK-LABEL: func @checked_by_pcc
// CHECK-NOT: cf.assert
// CHECK-NOT: pcc_mlir_check_failed
// CHECK: tensor.extract
func.func @checked_by_pcc(%t: tensor<4xf32>, %i: index, %ok: i1) -> f32 {
  cf.assert %ok, "ERROR: Runtime op verification failed\0A%0 = tensor.extract ...\0A^ out-of-bounds access\0ALocation: loc(\22prog.mlir\22:8:10)" loc("prog.mlir":8:10)
  %v = tensor.extract %t[%i] : tensor<4xf32> loc("prog.mlir":8:10)
  return %v : f32
}

// -----

// CHECK-LABEL: func @slice_checked_by_pcc
// CHECK-NOT: cf.assert
// CHECK-NOT: pcc_mlir_check_failed
// CHECK: tensor.extract_slice
func.func @slice_checked_by_pcc(%t: tensor<4xf32>, %i: index, %n: index, %ok: i1) -> tensor<?xf32> {
  cf.assert %ok, "ERROR: Runtime op verification failed\0A%0 = tensor.extract_slice ...\0A^ extract_slice runs out-of-bounds along dimension 0\0ALocation: loc(\22prog.mlir\22:9:10)" loc("prog.mlir":9:10)
  %v = tensor.extract_slice %t[%i] [%n] [1] : tensor<4xf32> to tensor<?xf32> loc("prog.mlir":9:10)
  return %v : tensor<?xf32>
}
