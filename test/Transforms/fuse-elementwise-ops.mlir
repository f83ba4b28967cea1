// RUN: pcc-opt %s --convert-elementwise-to-linalg --pcc-fuse-elementwise-ops | FileCheck %s

// A chain of elementwise ops is one generic, computed into an empty tensor
// (not over its first operand): each element by the same ops in order.
// CHECK-LABEL: func.func @chain
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>)
    -> tensor<4xf32> {
  %m = arith.mulf %a, %b : tensor<4xf32>
  %s = arith.addf %m, %c : tensor<4xf32>
  return %s : tensor<4xf32>
}

// A splat constant operand is read as a scalar.
// CHECK-LABEL: func.func @splat
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4xf32>)
// CHECK: arith.mulf %{{.*}}, %[[TWO]] : f32
func.func @splat(%a: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %m = arith.mulf %a, %two : tensor<4xf32>
  return %m : tensor<4xf32>
}

// A value read twice is computed once: not fused.
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[M:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%[[M]], %arg1
// CHECK: arith.addf
// CHECK: return %[[M]]
func.func @two_uses(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %m = arith.mulf %a, %b : tensor<4xf32>
  %s = arith.addf %m, %b : tensor<4xf32>
  return %m, %s : tensor<4xf32>, tensor<4xf32>
}

// A value computed before a loop is not recomputed at every step.
// CHECK-LABEL: func.func @loop
// CHECK: %[[M:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[M]] :
// CHECK: arith.addf
func.func @loop(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index)
    -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.mulf %a, %b : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %b) -> tensor<4xf32> {
    %s = arith.addf %x, %m : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A payload that reads memory runs where it is written: the store between
// it and its user must not come first.
// CHECK-LABEL: func.func @reads_memory
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: memref.load
// CHECK: memref.store
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg0 :
#id = affine_map<(d0) -> (d0)>
func.func @reads_memory(%a: tensor<4xf32>, %mem: memref<f32>)
    -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = memref.load %mem[] : memref<f32>
    %y = arith.addf %x, %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %mem[] : memref<f32>
  %s = arith.addf %p, %a : tensor<4xf32>
  return %s : tensor<4xf32>
}

// A value that a broadcast reads 3 times is computed once, not 3 times.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[X:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[X]], %arg1 :
#row = affine_map<(d0, d1) -> (d1)>
#all = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast(%a: tensor<4xf32>, %b: tensor<3x4xf32>)
    -> tensor<3x4xf32> {
  %x = math.exp %a : tensor<4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [#row, #all, #all],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4xf32>, tensor<3x4xf32>)
      outs(%e : tensor<3x4xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %y = arith.addf %v, %w : f32
    linalg.yield %y : f32
  } -> tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}

// A value the user's payload never reads is not fused into it: it would be
// dead there, and so would its index checks, which come later.
// CHECK-LABEL: func.func @unread
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: tensor.extract
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg0 :
func.func @unread(%t: tensor<4xf32>, %idx: tensor<4xindex>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<4xindex>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %t[%i] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %b, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}
