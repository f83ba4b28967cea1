// RUN: pcc-opt %s -split-input-file --pcc-outline-segments="min-ops=0 max-segment-ops=12" | FileCheck %s
// RUN: pcc-opt %s -split-input-file --pcc-outline-segments | FileCheck %s --check-prefix=SMALL

// Runs of work between runtime calls move into functions of their own;
// constants stay and are cloned into them, other values read become
// arguments and values read later become results. Runtime calls move too,
// in pieces of at most max-segment-ops ops; a stack allocation stays, and
// cuts the run.
// CHECK-LABEL: func.func @body
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[X:.*]]: memref<8xf32>, %[[N:.*]]: index)
// CHECK-NOT: call
// CHECK: %[[S0:.*]] = call @body_segment0(%[[X]], %[[DEV]], %[[N]]) : (memref<8xf32>, i64, index) -> memref<8xf32>
// CHECK-NEXT: %[[STACK:.*]] = memref.alloca() : memref<8xf32>
// CHECK-NEXT: call @body_segment1(%[[S0]], %[[STACK]], %[[DEV]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @body_segment0
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[D:.*]]: i64, %[[K:.*]]: index) -> memref<8xf32>
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[M:.*]] = memref.alloc() : memref<8xf32>
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.*}}, %[[C]]
// CHECK: spmd.runtime_call @sum(%[[D]]) outs(%[[M]])
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]]
// CHECK: return %[[M]] : memref<8xf32>
// CHECK-LABEL: func.func private @body_segment1
// CHECK-SAME: (%[[M2:.*]]: memref<8xf32>, %[[T:.*]]: memref<8xf32>, %[[D2:.*]]: i64)
// CHECK-NEXT: linalg.copy ins(%[[M2]] : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// CHECK-NEXT: spmd.runtime_call @sum(%[[D2]]) outs(%[[T]])
// CHECK-NEXT: memref.dealloc %[[M2]]
// CHECK-NEXT: return

// A function of fewer ops than min-ops is left as it is.
// SMALL-LABEL: func.func @body
// SMALL-NOT: call @body_segment
// SMALL: memref.alloca
// SMALL-NOT: func.func private @body_segment
func.func @body(%device: i64, %x: memref<8xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %two : f32
    linalg.yield %p : f32
  }
  spmd.runtime_call @sum(%device) outs(%m) : (i64) -> memref<8xf32>
  scf.for %i = %c0 to %n step %c1 {
    spmd.runtime_call @sum(%device) outs(%m) : (i64) -> memref<8xf32>
  }
  %stack = memref.alloca() : memref<8xf32>
  linalg.copy ins(%m : memref<8xf32>) outs(%stack : memref<8xf32>)
  spmd.runtime_call @sum(%device) outs(%stack) : (i64) -> memref<8xf32>
  memref.dealloc %m : memref<8xf32>
  return
}

// -----

// Launches stay where they are, and so does an op too large for one
// segment: its own blocks are outlined in turn.
// CHECK-LABEL: func.func @host
// CHECK: scf.for
// CHECK-NEXT: call @host_segment0
// CHECK-NEXT: spmd.launch @device devices 2
// CHECK-NEXT: call @host_segment1
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @host_segment0
// CHECK: linalg.fill
// CHECK-LABEL: func.func private @host_segment1
// CHECK: linalg.fill
func.func private @device(%d: i64, %x: memref<2xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  return
}
func.func @host(%x: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    linalg.fill ins(%one : f32) outs(%x : memref<2xf32>)
    spmd.launch @device devices 2 () outs(%x) : () -> memref<2xf32>
    linalg.fill ins(%one : f32) outs(%x : memref<2xf32>)
  }
  return
}

// -----

// A value made from nothing (here a global's address, as a collective's
// call site is) that several segments read stays in the function: each
// segment makes its own, rather than the first returning it and the others
// taking it as an argument.
// CHECK-LABEL: func.func @sites
// CHECK: call @sites_segment0(%{{.*}}, %{{.*}}) : (i64, memref<8xf32>) -> ()
// CHECK: call @sites_segment1(%{{.*}}, %{{.*}}) : (i64, memref<8xf32>) -> ()
// CHECK-LABEL: func.func private @sites_segment0
// CHECK: memref.get_global @site
// CHECK-LABEL: func.func private @sites_segment1
// CHECK: memref.get_global @site
memref.global "private" constant @site : memref<2xi8> = dense<[1, 0]>
func.func @sites(%device: i64, %m: memref<8xf32>) {
  %site = memref.get_global @site : memref<2xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    spmd.runtime_call @note(%device, %site) outs(%m) : (i64, memref<2xi8>) -> memref<8xf32>
  }
  scf.for %i = %c0 to %c1 step %c1 {
    spmd.runtime_call @note(%device, %site) outs(%m) : (i64, memref<2xi8>) -> memref<8xf32>
  }
  scf.for %i = %c0 to %c1 step %c1 {
    spmd.runtime_call @note(%device, %site) outs(%m) : (i64, memref<2xi8>) -> memref<8xf32>
  }
  scf.for %i = %c0 to %c1 step %c1 {
    spmd.runtime_call @note(%device, %site) outs(%m) : (i64, memref<2xi8>) -> memref<8xf32>
  }
  scf.for %i = %c0 to %c1 step %c1 {
    spmd.runtime_call @note(%device, %site) outs(%m) : (i64, memref<2xi8>) -> memref<8xf32>
  }
  return
}
