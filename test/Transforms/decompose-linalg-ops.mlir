// RUN: pcc-opt %s --pcc-decompose-linalg-ops --split-input-file --verify-diagnostics | FileCheck %s

// A pack pads to whole tiles, splits each tiled dimension and moves the
// tiles innermost; an unpack undoes it and drops the padding.
// CHECK-LABEL: func @pack_and_unpack
func.func @pack_and_unpack(%a: tensor<5x6xf32>, %pad: f32) -> tensor<5x6xf32> {
  // CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0] high[1, 0]
  // CHECK: tensor.yield %{{.*}} : f32
  // CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[PADDED]] {{\[}}[0, 1], [2, 3]] output_shape [2, 3, 3, 2] : tensor<6x6xf32> into tensor<2x3x3x2xf32>
  // CHECK: %[[PACKED:.*]] = linalg.transpose ins(%[[SPLIT]] : tensor<2x3x3x2xf32>) outs(%{{.*}} : tensor<3x2x3x2xf32>) permutation = [2, 0, 1, 3]
  // CHECK-NOT: linalg.pack
  %e = tensor.empty() : tensor<3x2x3x2xf32>
  %p = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [0, 1] inner_tiles = [3, 2] into %e
      : tensor<5x6xf32> -> tensor<3x2x3x2xf32>
  // CHECK: linalg.transpose ins(%[[PACKED]] : tensor<3x2x3x2xf32>)
  // CHECK: tensor.collapse_shape
  // CHECK: tensor.extract_slice %{{.*}}[0, 0] [5, 6] [1, 1] : tensor<6x6xf32> to tensor<5x6xf32>
  // CHECK-NOT: linalg.unpack
  %o = tensor.empty() : tensor<5x6xf32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
      inner_tiles = [3, 2] into %o : tensor<3x2x3x2xf32> -> tensor<5x6xf32>
  return %u : tensor<5x6xf32>
}

// -----

// What upstream cannot lower (pcc-verify-closed rejects it first in `pcc`).
func.func @dynamic_tiles(%a: tensor<8x3xf32>, %t: index, %n: index) -> tensor<?x3x?xf32> {
  %e = tensor.empty(%n, %t) : tensor<?x3x?xf32>
  // expected-error @+1 {{upstream's decomposition of 'linalg.pack' failed}}
  %p = linalg.pack %a inner_dims_pos = [0] inner_tiles = [%t] into %e
      : tensor<8x3xf32> -> tensor<?x3x?xf32>
  return %p : tensor<?x3x?xf32>
}

// -----

// A softmax is the maximum along its dimension, the exponentials of the
// differences from it, their sum and the quotients.
// CHECK-LABEL: func @softmax
func.func @softmax(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
  // CHECK: arith.maxnumf
  // CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] :
  // CHECK: arith.subf
  // CHECK: math.exp
  // CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] :
  // CHECK: arith.addf
  // CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
  // CHECK: arith.divf
  // CHECK-NOT: linalg.softmax
  %e = tensor.empty() : tensor<2x4xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// The Winograd transforms are loops over filters/tiles whose bodies
// multiply a 2-D slice by the transform's constant matrices on both sides.
// CHECK-LABEL: func @winograd
func.func @winograd(%f: tensor<2x3x3x5xf32>, %x: tensor<1x14x14x5xf32>,
                    %m: tensor<6x6x3x3x1x2xf32>, %o: tensor<1x12x12x2xf32>)
    -> (tensor<6x6x5x2xf32>, tensor<6x6x3x3x1x5xf32>, tensor<1x12x12x2xf32>) {
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: tensor.extract_slice %{{.*}} : tensor<2x3x3x5xf32> to tensor<3x3xf32>
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x3xf32>, tensor<3x3xf32>)
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x3xf32>, tensor<3x6xf32>)
  // CHECK: tensor.insert_slice %{{.*}} : tensor<6x6xf32> into tensor<6x6x5x2xf32>
  %e0 = tensor.empty() : tensor<6x6x5x2xf32>
  %ft = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%e0 : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  // CHECK: tensor.extract_slice %{{.*}} : tensor<1x14x14x5xf32> to tensor<6x6xf32>
  // CHECK: linalg.matmul
  // CHECK: linalg.matmul
  // CHECK: tensor.insert_slice %{{.*}} : tensor<6x6xf32> into tensor<6x6x3x3x1x5xf32>
  %e1 = tensor.empty() : tensor<6x6x3x3x1x5xf32>
  %it = linalg.winograd_input_transform fmr(F_4_3) ins(%x : tensor<1x14x14x5xf32>) outs(%e1 : tensor<6x6x3x3x1x5xf32>) -> tensor<6x6x3x3x1x5xf32>
  // CHECK: tensor.extract_slice %{{.*}} : tensor<6x6x3x3x1x2xf32> to tensor<6x6xf32>
  // CHECK: linalg.matmul
  // CHECK: linalg.matmul
  // CHECK-NOT: linalg.winograd
  %ot = linalg.winograd_output_transform fmr(F_4_3) ins(%m : tensor<6x6x3x3x1x2xf32>) outs(%o : tensor<1x12x12x2xf32>) -> tensor<1x12x12x2xf32>
  return %ft, %it, %ot : tensor<6x6x5x2xf32>, tensor<6x6x3x3x1x5xf32>, tensor<1x12x12x2xf32>
}

// -----

// A reduction over nothing is its init, whether or not its payload reads it.
// CHECK-LABEL: func @reduce_nothing
// CHECK-SAME: (%{{.*}}: tensor<3x0xf32>, %[[INIT:.*]]: tensor<3xf32>)
func.func @reduce_nothing(%x: tensor<3x0xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK-NOT: linalg.reduce
  // CHECK: return %[[INIT]]
  %last = linalg.reduce ins(%x : tensor<3x0xf32>) outs(%init : tensor<3xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      linalg.yield %in : f32
    }
  return %last : tensor<3xf32>
}

// -----

// Dynamically sized, it is chosen at run time where the payload ignores the
// init; a payload that reads its init needs no choice, nor does a reduction
// over a dimension known not to be empty.
// CHECK-LABEL: func @reduce_maybe_nothing
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>, %[[INIT:.*]]: tensor<?xf32>, %[[Y:.*]]: tensor<?x4xf32>)
func.func @reduce_maybe_nothing(%x: tensor<?x?xf32>, %init: tensor<?xf32>, %y: tensor<?x4xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  // CHECK: %[[N:.*]] = tensor.dim %[[X]], %c1
  // CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %c0
  // CHECK: %[[LAST:.*]] = scf.if %[[EMPTY]] -> (tensor<?xf32>) {
  // CHECK-NEXT: scf.yield %[[INIT]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %[[REDUCED:.*]] = linalg.reduce
  // CHECK: scf.yield %[[REDUCED]]
  %last = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      linalg.yield %in : f32
    }
  // CHECK-NOT: scf.if
  // CHECK: %[[SUM:.*]] = linalg.reduce
  %sum = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  // CHECK: %[[FIRST:.*]] = linalg.reduce
  %first = linalg.reduce ins(%y : tensor<?x4xf32>) outs(%init : tensor<?xf32>)
      dimensions = [1]
    (%in: f32, %acc: f32) {
      linalg.yield %in : f32
    }
  // CHECK: return %[[LAST]], %[[SUM]], %[[FIRST]]
  return %last, %sum, %first : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
