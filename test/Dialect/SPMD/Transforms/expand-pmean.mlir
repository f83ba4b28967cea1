// RUN: pcc-opt %s --pcc-expand-pmean | FileCheck %s

// CHECK-LABEL: func @tensor_mean
func.func @tensor_mean(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    // CHECK: %[[S:.*]] = spmd.psum %{{.*}} over "i" : tensor<3xf32>
    // CHECK: %[[N:.*]] = arith.constant dense<4.000000e+00> : tensor<3xf32>
    // CHECK: %[[M:.*]] = arith.divf %[[S]], %[[N]] : tensor<3xf32>
    // CHECK: spmd.yield %[[M]]
    // CHECK-NOT: spmd.pmean
    %m = spmd.pmean %x over "i" : tensor<3xf32>
    spmd.yield %m : tensor<3xf32>
  }
  return %r : tensor<4x3xf32>
}

// The divisor is the size of the whole group: 2 * 3 devices.
// CHECK-LABEL: func @grid_scalar_mean
func.func @grid_scalar_mean(%v: f16) {
  spmd.pmap "i" size 2 {
    spmd.pmap "j" size 3 {
      // CHECK: %[[S:.*]] = spmd.psum %{{.*}} over ["i", "j"] : f16
      // CHECK: %[[N:.*]] = arith.constant 6.000000e+00 : f16
      // CHECK: arith.divf %[[S]], %[[N]] : f16
      %m = spmd.pmean %v over ["i", "j"] : f16
      // CHECK: %[[S2:.*]] = spmd.psum %{{.*}} over "j" : f16
      // CHECK: %[[N2:.*]] = arith.constant 3.000000e+00 : f16
      // CHECK: arith.divf %[[S2]], %[[N2]] : f16
      %n = spmd.pmean %v over "j" : f16
      spmd.yield
    }
    spmd.yield
  }
  return
}
