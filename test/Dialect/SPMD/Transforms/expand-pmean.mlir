// RUN: pcc-opt %s --pcc-expand-pmean | FileCheck %s

// CHECK-LABEL: func @tensor_mean
func.func @tensor_mean(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    // CHECK: %[[S:.*]] = spmd.psum %{{.*}} over "i" {spmd.written_as = "spmd.pmean"} : tensor<3xf32>
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
      // CHECK: %[[S:.*]] = spmd.psum %{{.*}} over ["i", "j"] {spmd.written_as = "spmd.pmean"} : f16
      // CHECK: %[[N:.*]] = arith.constant 6.000000e+00 : f16
      // CHECK: arith.divf %[[S]], %[[N]] : f16
      %m = spmd.pmean %v over ["i", "j"] : f16
      // CHECK: %[[S2:.*]] = spmd.psum %{{.*}} over "j" {spmd.written_as = "spmd.pmean"} : f16
      // CHECK: %[[N2:.*]] = arith.constant 3.000000e+00 : f16
      // CHECK: arith.divf %[[S2]], %[[N2]] : f16
      %n = spmd.pmean %v over "j" : f16
      spmd.yield
    }
    spmd.yield
  }
  return
}

// With groups, a device divides by the size of its own group: a constant
// where the groups are of one size, else looked up by its position.
// CHECK-LABEL: func @grouped_means
func.func @grouped_means(%v: tensor<3xf32>) {
  spmd.pmap "i" size 4 {
    // CHECK: %[[S:.*]] = spmd.psum %{{.*}} over "i" groups {{\[}}[0, 1], [2, 3]] {spmd.written_as = "spmd.pmean"} : tensor<3xf32>
    // CHECK: %[[N:.*]] = arith.constant dense<2.000000e+00> : tensor<3xf32>
    // CHECK: arith.divf %[[S]], %[[N]] : tensor<3xf32>
    %m = spmd.pmean %v over "i" groups [[0, 1], [2, 3]] : tensor<3xf32>
    // CHECK: %[[S2:.*]] = spmd.psum %{{.*}} over "i" groups {{\[}}[0, 2, 3], [1]] {spmd.written_as = "spmd.pmean"} : tensor<3xf32>
    // CHECK: %[[SIZES:.*]] = arith.constant dense<[3.000000e+00, 1.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<4xf32>
    // CHECK: %[[K:.*]] = spmd.axis_index "i" : index
    // CHECK: %[[SIZE:.*]] = tensor.extract %[[SIZES]][%[[K]]] : tensor<4xf32>
    // CHECK: %[[N2:.*]] = tensor.splat %[[SIZE]] : tensor<3xf32>
    // CHECK: arith.divf %[[S2]], %[[N2]] : tensor<3xf32>
    %n = spmd.pmean %v over "i" groups [[0, 2, 3], [1]] : tensor<3xf32>
    spmd.yield
  }
  return
}
