// RUN: pcc-opt %s --pcc-lower-nested-linalg-ops | FileCheck %s

// A linalg op in another's body becomes loops, its index the induction
// variable of its own loop; the enclosing op stays.
// CHECK-LABEL: func @nested
func.func @nested(%out: memref<4xindex>, %tmp: memref<3xindex>) {
  // CHECK: linalg.generic
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%out : memref<4xindex>) {
  ^bb0(%o: index):
    // CHECK: %[[J:.*]] = linalg.index 0 : index
    %j = linalg.index 0 : index
    // CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
    // CHECK:   %[[S:.*]] = arith.addi %[[I]], %[[J]] : index
    // CHECK:   memref.store %[[S]], %{{.*}}[%{{.*}}] : memref<3xindex>
    // CHECK-NOT: linalg.map
    linalg.map outs(%tmp : memref<3xindex>) (%init: index) {
      %i = linalg.index 0 : index
      %s = arith.addi %i, %j : index
      linalg.yield %s : index
    }
    linalg.yield %j : index
  }
  return
}
