// RUN: pcc-opt %s --pass-pipeline="builtin.module(func.func(pcc-reuse-loop-buffers))" | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// The next value is computed into the current one, through the reduce to
// the fill of its accumulator.
// CHECK-LABEL: func @through_reduce
// CHECK: scf.for {{.*}} iter_args(%[[A:[^ ]*]] = %{{[^,]*}}, %[[B:[^ ]*]] = 
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>) outs(%[[A]] : tensor<4xf32>)
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : tensor<4xf32>)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2x4xf32>) outs(%[[F]] : tensor<4xf32>)
func.func @through_reduce(%x: tensor<4xf32>, %n: index, %g: tensor<2x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%p: f32, %o: f32):
      %q = arith.mulf %p, %p : f32
      linalg.yield %q : f32
    } -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.reduce ins(%g : tensor<2x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %t = arith.addf %in, %acc : f32
        linalg.yield %t : f32
      }
    scf.yield %m, %s : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// An op that reads its empty init (whose contents are unspecified) keeps
// it: computing into the loop's value would cost a copy of it.
// CHECK-LABEL: func @kept
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<4xf32>)
func.func @kept(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%p: f32, %o: f32):
      %q = arith.addf %p, %o : f32
      linalg.yield %q : f32
    } -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
