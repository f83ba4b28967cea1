// RUN: pcc-opt %s --split-input-file --pcc-entry-abi --verify-diagnostics | FileCheck %s

// Tensor and scalar arguments, tensor and scalar results.
// CHECK-LABEL: func.func private @main(
// CHECK-SAME: %{{.*}}: tensor<4x3xf32>, %{{.*}}: f32) -> (tensor<4xf32>, i64)
// CHECK-LABEL: func.func @_pcc_entry(
// CHECK-SAME: %[[A:.*]]: memref<4x3xf32>, %[[S:.*]]: memref<f32>, %[[R0:.*]]: memref<4xf32>, %[[R1:.*]]: memref<i64>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]] restrict : memref<4x3xf32> to tensor<4x3xf32>
// CHECK: %[[V:.*]] = memref.load %[[S]][] : memref<f32>
// CHECK: %[[C:.*]]:2 = call @main(%[[T]], %[[V]]) : (tensor<4x3xf32>, f32) -> (tensor<4xf32>, i64)
// CHECK: bufferization.materialize_in_destination %[[C]]#0 in restrict writable %[[R0]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK: memref.store %[[C]]#1, %[[R1]][] : memref<i64>
// CHECK: return
func.func @main(%a: tensor<4x3xf32>, %s: f32) -> (tensor<4xf32>, i64) {
  %e = tensor.empty() : tensor<4xf32>
  %c = arith.constant 7 : i64
  return %e, %c : tensor<4xf32>, i64
}

// -----

// No arguments, no results; other functions are left alone.
// CHECK-LABEL: func.func @helper()
// CHECK-LABEL: func.func private @main()
// CHECK-LABEL: func.func @_pcc_entry()
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-NEXT: call @main() : () -> ()
// CHECK-NEXT: return
func.func @helper() {
  return
}
func.func @main() {
  func.call @helper() : () -> ()
  return
}

// -----

// i1, bf16, index and 0-d tensors cross as memrefs too.
// CHECK-LABEL: func.func @_pcc_entry(
// CHECK-SAME: %{{.*}}: memref<2xi1>, %{{.*}}: memref<bf16>, %{{.*}}: memref<index>, %{{.*}}: memref<f64>)
// CHECK: bufferization.to_tensor %{{.*}} restrict : memref<2xi1> to tensor<2xi1>
// CHECK: memref.load %{{.*}}[] : memref<bf16>
// CHECK: memref.load %{{.*}}[] : memref<index>
// CHECK: %[[C:.*]] = call @main
// CHECK: bufferization.materialize_in_destination %[[C]] in restrict writable %{{.*}} : (tensor<f64>, memref<f64>) -> ()
func.func @main(%a: tensor<2xi1>, %b: bf16, %i: index) -> tensor<f64> {
  %c = arith.constant dense<1.0> : tensor<f64>
  return %c : tensor<f64>
}

// -----

// expected-error @+1 {{entry function @main not found}}
module {
  func.func @other() {
    return
  }
}

// -----

// expected-error @+1 {{argument #0 of entry function @main has a dynamic shape (tensor<?xf32>); the entry function needs static shapes}}
func.func @main(%a: tensor<?xf32>) {
  return
}

// -----

// expected-error @+3 {{argument #0 of entry function @main has type complex<f32>, but only statically shaped ranked tensors and scalars of integer, float or index type are supported}}
// expected-error @+2 {{argument #1 of entry function @main has type tensor<*xf32>}}
// expected-error @+1 {{result #0 of entry function @main has type complex<f32>}}
func.func @main(%a: complex<f32>, %b: tensor<*xf32>) -> complex<f32> {
  return %a : complex<f32>
}

// -----

// expected-error @+1 {{argument #0 of entry function @main has type ui32}}
func.func @main(%a: ui32) {
  return
}

// -----

// expected-error @+1 {{entry function @main must have a body}}
func.func private @main(%a: f32)

// -----

func.func @main() {
  return
}
// expected-error @+1 {{the symbol @_pcc_entry is reserved for the entry wrapper}}
func.func @_pcc_entry() {
  return
}
