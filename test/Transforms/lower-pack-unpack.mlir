// RUN: pcc-opt %s --pcc-lower-pack-unpack --split-input-file --verify-diagnostics | FileCheck %s

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
  // expected-error @+1 {{upstream's lowering of 'linalg.pack' failed}}
  %p = linalg.pack %a inner_dims_pos = [0] inner_tiles = [%t] into %e
      : tensor<8x3xf32> -> tensor<?x3x?xf32>
  return %p : tensor<?x3x?xf32>
}
