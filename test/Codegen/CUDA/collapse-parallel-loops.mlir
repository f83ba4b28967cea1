// RUN: pcc-opt %s --pass-pipeline="builtin.module(func.func(pcc-collapse-parallel-loops))" | FileCheck %s

// A 3-d nest becomes one loop over the row-major linear index; nested
// parallel loops are left to the outer one's threads.
// CHECK-LABEL: func.func @nest(
// CHECK: scf.parallel (%[[L:.*]]) = (%c0{{.*}}) to (%[[N:.*]]) step (%c1{{.*}}) {
// CHECK-NOT: scf.parallel
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}, %{{.*}}]
func.func @nest(%out: memref<2x70000x4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c70000 = arith.constant 70000 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c70000, %c4) step (%c1, %c1, %c1) {
    memref.store %v, %out[%i, %j, %k] : memref<2x70000x4xf32>
  }
  return
}
