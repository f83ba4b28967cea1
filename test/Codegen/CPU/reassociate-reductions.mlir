// RUN: pcc-opt %s --pass-pipeline="builtin.module(func.func(pcc-reassociate-reductions))" | FileCheck %s

// A reduction's float combiner may be reordered (and keeps its other flags).
// CHECK-LABEL: func @row_sums
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,nnan> : f32
func.func @row_sums(%x: memref<4x1024xf32>, %s: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x1024xf32>) outs(%s : memref<4xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc fastmath<nnan> : f32
      linalg.yield %0 : f32
    }
  return
}

// So may a product in a generic with a reduction loop.
// CHECK-LABEL: func @products
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
func.func @products(%x: memref<8xf64>, %p: memref<f64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<8xf64>) outs(%p : memref<f64>) {
  ^bb0(%in: f64, %acc: f64):
    %0 = arith.mulf %in, %acc : f64
    linalg.yield %0 : f64
  }
  return
}

// Elementwise ops keep their exact semantics.
// CHECK-LABEL: func @elementwise
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: reassoc
func.func @elementwise(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// In a reduction's body, only the accumulator's combiners: (x * c1) * c2
// before the sum keeps its order (reassociated, 1e10 * 1e30 * 1e-30 would
// be 1e10, not inf).
// CHECK-LABEL: func @scaled_sums
// CHECK: %[[A:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[B:.*]] = arith.mulf %[[A]], %{{.*}} : f32
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[B]] fastmath<reassoc> : f32
// CHECK: arith.addf %[[S]], %{{.*}} fastmath<reassoc> : f32
func.func @scaled_sums(%x: memref<4x8xf32>, %s: memref<4xf32>) {
  %c1 = arith.constant 1.0e30 : f32
  %c2 = arith.constant 1.0e-30 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.mulf %in, %c1 : f32
    %b = arith.mulf %a, %c2 : f32
    %t = arith.addf %acc, %b : f32
    %u = arith.addf %t, %in : f32
    linalg.yield %u : f32
  }
  return
}
