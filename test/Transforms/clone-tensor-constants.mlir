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

// Each op that computes into a tensor filled with a constant gets a fill of
// its own (of a new empty tensor), made right before it, instead of a copy
// of the shared one; an op that only reads it keeps the original.
// CHECK-LABEL: func.func @filled
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]]
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]]
// CHECK-NEXT: %[[P:.*]] = linalg.matmul ins(%arg0, %arg0 : {{.*}}) outs(%[[F1]] :
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]]
// CHECK-NEXT: %[[Q:.*]] = linalg.matmul ins(%[[P]], %arg0 : {{.*}}) outs(%[[F2]] :
// CHECK-NEXT: arith.addf %[[Q]], %[[F]]
func.func @filled(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = linalg.matmul ins(%p, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = arith.addf %q, %f : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// Where only ops that compute into it use the fill, the first keeps it; a
// fill of a value that is not a constant, or of a tensor that is not
// empty, is left alone.
// CHECK-LABEL: func.func @only_inits
// CHECK:      %[[F:.*]] = linalg.fill
// CHECK-NEXT: linalg.matmul ins(%arg0, %arg0 : {{.*}}) outs(%[[F]] :
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[F1:.*]] = linalg.fill
// CHECK-NEXT: linalg.matmul ins({{.*}}) outs(%[[F1]] :
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT: linalg.fill
func.func @only_inits(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = linalg.matmul ins(%p, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %q : tensor<4x4xf32>
}

func.func @left_alone(%x: tensor<4x4xf32>, %s: f32) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = linalg.matmul ins(%p, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %one = arith.constant 1.0 : f32
  %g = linalg.fill ins(%one : f32) outs(%x : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%q, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%g : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = linalg.matmul ins(%r, %x : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%g : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %q, %t : tensor<4x4xf32>, tensor<4x4xf32>
}
