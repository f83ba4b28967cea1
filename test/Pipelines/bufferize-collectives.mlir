// The reported wrong answer, through the stages of the cpu pipeline down to
// bufferization: s = psum(x); m = s * x; t = psum(s). The product (computed
// in place of its first operand by convert-elementwise-to-linalg) must not
// be written over s, which the second sum still reads after it; before the
// collectives were bufferizable, the canonicalizer folded the second sum's
// read of s away and the product overwrote it (t came out as psum(s * x)).
// RUN: pcc-opt %s --pcc-entry-abi --pcc-outline-pmaps --pcc-lower-collectives --canonicalize --convert-elementwise-to-linalg --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// (The first sum goes straight into the product's result slice, from which
// the second sum reads it; the product is computed into a buffer of its own
// and copied into the slice only after that.)
// CHECK-LABEL: func.func private @main_pmap
// CHECK: spmd.runtime_call @pcc_collective({{.*}}) outs(%[[S:[^)]*]])
// CHECK: %[[M:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}} : {{.*}}) outs(%[[M]] : memref<f32>)
// CHECK: spmd.runtime_call @pcc_collective({{.*}}, %[[S]]) outs(
// CHECK: memref.copy %[[M]], %
func.func @main(%arg0: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %t, %m = spmd.pmap "a" (%x = %arg0 : tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
    %s = spmd.psum %x over "a" : tensor<f32>
    %m1 = arith.mulf %s, %x : tensor<f32>
    %t1 = spmd.psum %s over "a" : tensor<f32>
    spmd.yield %t1, %m1 : tensor<f32>, tensor<f32>
  }
  return %t, %m : tensor<6xf32>, tensor<6xf32>
}
