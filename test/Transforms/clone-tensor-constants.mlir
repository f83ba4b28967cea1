// RUN: pcc-opt %s --pcc-clone-tensor-constants | FileCheck %s

// Each user of a tensor constant but the first reads a copy of its own,
// made right before it (in a loop's body too); scalar constants and
// constants of one use stay as they are.
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: %[[S:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<3.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[A:.*]] = arith.mulf %{{.*}}, %[[C]]
// CHECK-NEXT: %[[C1:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[A]], %[[C1]]
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[B]], %[[ONE]]
// CHECK: scf.for
// CHECK-NEXT: %[[C2:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT: arith.mulf %{{.*}}, %[[C2]]
// CHECK: tensor.insert %[[S]]
// CHECK: tensor.insert %[[S]]
func.func @shared(%x: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %s = arith.constant 1.0 : f32
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %one = arith.constant dense<3.0> : tensor<8xf32>
  %a = arith.mulf %x, %c : tensor<8xf32>
  %b = arith.mulf %a, %c : tensor<8xf32>
  %d = arith.addf %b, %one : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %d) -> tensor<8xf32> {
    %m = arith.mulf %v, %c : tensor<8xf32>
    %w = tensor.insert %s into %m[%c0] : tensor<8xf32>
    %u = tensor.insert %s into %w[%c1] : tensor<8xf32>
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
