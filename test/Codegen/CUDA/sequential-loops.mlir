// RUN: pcc-opt %s --pcc-sequential-loops | FileCheck %s

// A two-dimensional parallel loop with two reductions: two nested scf.for
// loops carrying both values, combined by the reduce regions in order.
// CHECK-LABEL: func @two_reductions
// CHECK-NOT: scf.parallel
// CHECK: %[[R:.*]]:2 = scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%[[S:.*]] = %arg0, %[[M:.*]] = %arg1) -> (i64, i64) {
// CHECK:   %[[IN:.*]]:2 = scf.for %[[J:.*]] = %c0 to %c3 step %c1 iter_args(%[[S2:.*]] = %[[S]], %[[M2:.*]] = %[[M]]) -> (i64, i64) {
// CHECK:     %[[V:.*]] = arith.muli
// CHECK:     %[[SUM:.*]] = arith.addi %[[S2]], %[[V]] : i64
// CHECK:     %[[MAX:.*]] = arith.maxsi %[[M2]], %[[V]] : i64
// CHECK:     scf.yield %[[SUM]], %[[MAX]] : i64, i64
// CHECK:   }
// CHECK:   scf.yield %[[IN]]#0, %[[IN]]#1 : i64, i64
// CHECK: }
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @two_reductions(%zero: i64, %least: i64) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c3) step (%c1, %c1) init(%zero, %least) -> (i64, i64) {
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %v = arith.muli %ii, %jj : i64
    scf.reduce(%v, %v : i64, i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }, {
    ^bb0(%a: i64, %b: i64):
      %m = arith.maxsi %a, %b : i64
      scf.reduce.return %m : i64
    }
  }
  return %r#0, %r#1 : i64, i64
}

// A parallel loop without results is left to the GPU mapping.
// CHECK-LABEL: func @no_results
// CHECK: scf.parallel
func.func @no_results(%m: memref<4xi64>, %v: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %v, %m[%i] : memref<4xi64>
    scf.reduce
  }
  return
}

// A parallel loop inside another (a copy into a buffer that the outer body
// allocates) runs within each of the outer loop's threads, in order.
// CHECK-LABEL: func @nested
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK:   %[[ALLOC:.*]] = memref.alloc()
// CHECK:   scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK:     memref.load %arg0[%[[J]]]
// CHECK:     memref.store %{{.*}}, %[[ALLOC]][%[[J]]]
// CHECK:   }
// CHECK-NOT: scf.parallel
// CHECK:   memref.load %[[ALLOC]]
func.func @nested(%src: memref<4xf32>, %dst: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %copy = memref.alloc() : memref<4xf32>
    scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %src[%j] : memref<4xf32>
      memref.store %v, %copy[%j] : memref<4xf32>
      scf.reduce
    }
    %w = memref.load %copy[%i] : memref<4xf32>
    memref.store %w, %dst[%i] : memref<4xf32>
    memref.dealloc %copy : memref<4xf32>
    scf.reduce
  }
  return
}

// Inside a loop that reduces (a host loop once it is sequential), a loop
// without results stays parallel: it will be a kernel.
// CHECK-LABEL: func @inside_a_reduction
// CHECK: scf.for
// CHECK:   scf.parallel
func.func @inside_a_reduction(%m: memref<4xi64>, %zero: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init(%zero) -> i64 {
    scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
      %jj = arith.index_cast %j : index to i64
      memref.store %jj, %m[%j] : memref<4xi64>
      scf.reduce
    }
    %v = memref.load %m[%i] : memref<4xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  return %r : i64
}
