// RUN: pcc-opt %s --pcc-scope-kernel-launches | FileCheck %s

// CHECK-LABEL: func @launches
// CHECK: memref.alloca_scope {
// CHECK-NEXT: gpu.launch_func @kernels::@k
// CHECK-NEXT: }
// An asynchronous launch (whose token the scope would hide) is left alone.
// CHECK: %{{.*}} = gpu.launch_func async
// CHECK-NOT: memref.alloca_scope
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @launches(%a: memref<4xf32>, %t: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    %u = gpu.launch_func async [%t] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
