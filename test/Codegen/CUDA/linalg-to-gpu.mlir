// RUN: pcc-opt %s --pass-pipeline="builtin.module(func.func(pcc-linalg-to-gpu))" -split-input-file | FileCheck %s

// A row reduction: one block per row, 256 threads folding strided shares,
// then the block's all-reduce; thread 0 folds the total into the output.
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME: %[[X:.*]]: memref<8x1000xf32>, %[[S:.*]]: memref<8xf32>
// CHECK-DAG: %[[ROWS:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[THREADS:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREADS]],
// CHECK: %[[ROW:.*]] = arith.remui %[[BX]]
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PART:.*]] = scf.for %[[R:.*]] = %[[TX]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK:   %[[COL:.*]] = arith.remui %[[R]]
// CHECK:   %[[V:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK:   %[[NEXT:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK:   scf.yield %[[NEXT]]
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TX]]
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[OLD:.*]] = memref.load %[[S]][%[[ROW]]]
// CHECK:   %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]]
// CHECK:   memref.store %[[NEW]], %[[S]][%[[ROW]]]
// CHECK-NOT: linalg.reduce
func.func @row_sum(%x: memref<8x1000xf32>, %s: memref<8xf32>) {
  linalg.reduce ins(%x : memref<8x1000xf32>) outs(%s : memref<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}

// -----

// A generic reduction with work before the combining op (here linalg.index
// and a conversion): that work is cloned into the per-thread loop; the
// identity of maxsi is the smallest i32; fewer than 256 elements give a
// block of whole warps.
// CHECK-LABEL: func.func @generic_max(
// CHECK-DAG: %[[THREADS:.*]] = arith.constant 128 : index
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[THREADS]],
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[MIN]]) -> (i32)
// CHECK:   %[[K:.*]] = arith.remui %[[R]]
// CHECK:   %[[IDX:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK:   %[[F:.*]] = arith.fptosi
// CHECK:   %[[T:.*]] = arith.addi %[[F]], %[[IDX]]
// CHECK:   arith.maxsi %[[ACC]], %[[T]]
// CHECK: gpu.all_reduce maxsi
func.func @generic_max(%x: memref<4x100xf32>, %m: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x100xf32>) outs(%m : memref<4xi32>) {
    ^bb0(%in: f32, %acc: i32):
      %i = linalg.index 1 : index
      %ic = arith.index_cast %i : index to i32
      %f = arith.fptosi %in : f32 to i32
      %t = arith.addi %f, %ic : i32
      %mx = arith.maxsi %acc, %t : i32
      linalg.yield %mx : i32
  }
  return
}

// -----

// A matmul: 16x16 output tiles (grid 1 x 4 here), A and B staged through
// two workgroup buffers between barriers, out-of-range elements as 0.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x16xf32>, %[[C:.*]]: memref<64x16xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}}) workgroup(%[[AT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     memref.load %[[A]]
// CHECK:   memref.store %{{.*}}, %[[AT]]
// CHECK:   scf.if
// CHECK:     memref.load %[[B]]
// CHECK:   memref.store %{{.*}}, %[[BT]]
// CHECK:   gpu.barrier
// CHECK:   scf.for
// CHECK:     memref.load %[[AT]]
// CHECK:     memref.load %[[BT]]
// CHECK:     arith.mulf
// CHECK:     arith.addf
// CHECK:   gpu.barrier
// CHECK: scf.if
// CHECK:   memref.load %[[C]]
// CHECK:   arith.addf
// CHECK:   memref.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Batched: the batch is the grid's z dimension.
// CHECK-LABEL: func.func @batch_matmul(
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in ({{.*}}, {{.*}}, {{.*}} = %c3{{.*}})
// CHECK: memref.load %{{.*}}[%[[BZ]],
func.func @batch_matmul(%a: memref<3x20x40xf64>, %b: memref<3x40x24xf64>, %c: memref<3x20x24xf64>) {
  linalg.batch_matmul ins(%a, %b : memref<3x20x40xf64>, memref<3x40x24xf64>) outs(%c : memref<3x20x24xf64>)
  return
}

// -----

// Left to the parallel-loop path: a short reduction, a body that is not one
// combining op on the accumulator, a type shuffles do not move, elementwise
// work, and a matmul of mixed types.
// CHECK-LABEL: func.func @untouched(
// CHECK-NOT: gpu.launch
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.reduce
// CHECK: linalg.add
// CHECK: linalg.matmul
func.func @untouched(%x: memref<8x16xf32>, %s: memref<8xf32>, %y: memref<4x100xf32>,
                     %t: memref<4xf32>, %h: memref<4x100xi16>, %u: memref<4xi16>,
                     %a: memref<8x16xf32>, %ah: memref<8x16xf16>, %bh: memref<16x8xf16>, %c: memref<8x8xf32>) {
  linalg.reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<4x100xf32>) outs(%t : memref<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %p = arith.mulf %acc, %acc : f32
      %q = arith.addf %p, %in : f32
      linalg.yield %q : f32
  }
  linalg.reduce ins(%h : memref<4x100xi16>) outs(%u : memref<4xi16>) dimensions = [1]
    (%in: i16, %acc: i16) {
      %0 = arith.addi %in, %acc : i16
      linalg.yield %0 : i16
    }
  linalg.add ins(%x, %a : memref<8x16xf32>, memref<8x16xf32>) outs(%a : memref<8x16xf32>)
  linalg.matmul ins(%ah, %bh : memref<8x16xf16>, memref<16x8xf16>) outs(%c : memref<8x8xf32>)
  return
}

// -----

// Copies between buffers run on the GPU; a copy out of a global (host
// memory) stays a host copy.
// CHECK-LABEL: func.func @copies(
// CHECK: %[[G:.*]] = memref.get_global @c
// CHECK: memref.copy %[[G]], %arg0
// CHECK: linalg.copy ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>)
// CHECK-NOT: memref.copy
memref.global "private" constant @c : memref<4xf32> = dense<1.0>
func.func @copies(%a: memref<4xf32>, %b: memref<4xf32>) {
  %g = memref.get_global @c : memref<4xf32>
  memref.copy %g, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The output must be indexed by exactly the parallel dimensions: here a
// parallel dimension is missing from it (blocks would race on the one
// element), so the op is left to the parallel-loop path.
// CHECK-LABEL: func.func @output_misses_parallel_dim(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @output_misses_parallel_dim(%x: memref<4x100xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x100xf32>) outs(%s : memref<f32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.addf %acc, %in : f32
      linalg.yield %m : f32
  }
  return
}

// -----

// pmap slices operands: strided layouts with offsets are tiled too.
// CHECK-LABEL: func.func @strided_matmul(
// CHECK: gpu.launch {{.*}} workgroup(
// CHECK-NOT: linalg.matmul
func.func @strided_matmul(%a: memref<4x8x3xf32>, %b: memref<3x2xf32>, %c: memref<8x2xf32>, %i: index) {
  %s = memref.subview %a[%i, 0, 0] [1, 8, 3] [1, 1, 1] : memref<4x8x3xf32> to memref<8x3xf32, strided<[3, 1], offset: ?>>
  linalg.matmul ins(%s, %b : memref<8x3xf32, strided<[3, 1], offset: ?>>, memref<3x2xf32>) outs(%c : memref<8x2xf32>)
  return
}
