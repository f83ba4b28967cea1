// RUN: pcc-opt %s --pcc-fold-transposes-into-matmuls | FileCheck %s

// x.T @ y and x @ y.T read x and y where they lie, through swapped maps;
// a transpose that nothing else reads is gone.
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @folds
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] ins(%arg0, %arg1 : tensor<8x3xf32>, tensor<8x2xf32>)
// CHECK: linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] ins(%arg2, %arg3 : tensor<3x8xf32>, tensor<2x8xf32>)
func.func @folds(%x: tensor<8x3xf32>, %y: tensor<8x2xf32>, %p: tensor<3x8xf32>,
                 %q: tensor<2x8xf32>, %z: tensor<3x2xf32>)
    -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %e = tensor.empty() : tensor<3x8xf32>
  %xt = linalg.transpose ins(%x : tensor<8x3xf32>) outs(%e : tensor<3x8xf32>)
          permutation = [1, 0]
  %g = linalg.matmul ins(%xt, %y : tensor<3x8xf32>, tensor<8x2xf32>)
                     outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  %f = tensor.empty() : tensor<8x2xf32>
  %qt = linalg.transpose ins(%q : tensor<2x8xf32>) outs(%f : tensor<8x2xf32>)
          permutation = [1, 0]
  %h = linalg.matmul ins(%p, %qt : tensor<3x8xf32>, tensor<8x2xf32>)
                     outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %g, %h : tensor<3x2xf32>, tensor<3x2xf32>
}

// An operand already read transposed through its map, read from a
// transpose, is read as it lies (the default maps, which print as none); a
// transpose that something else reads stays for it.
// CHECK-LABEL: func.func @twice_and_shared
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<3x8xf32>, tensor<8x2xf32>)
// CHECK: return %{{.*}}, %[[T]]
func.func @twice_and_shared(%x: tensor<3x8xf32>, %y: tensor<8x2xf32>,
                            %z: tensor<3x2xf32>)
    -> (tensor<3x2xf32>, tensor<8x3xf32>) {
  %e = tensor.empty() : tensor<8x3xf32>
  %xt = linalg.transpose ins(%x : tensor<3x8xf32>) outs(%e : tensor<8x3xf32>)
          permutation = [1, 0]
  %g = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                      affine_map<(m, n, k) -> (k, n)>,
                                      affine_map<(m, n, k) -> (m, n)>]
                     ins(%xt, %y : tensor<8x3xf32>, tensor<8x2xf32>)
                     outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %g, %xt : tensor<3x2xf32>, tensor<8x3xf32>
}

// Buffers are left alone: what else writes them between is not known.
// CHECK-LABEL: func.func @buffers
// CHECK: linalg.transpose
// CHECK: linalg.matmul ins(%{{.*}}, %arg1 : memref<3x8xf32>, memref<8x2xf32>)
func.func @buffers(%x: memref<8x3xf32>, %y: memref<8x2xf32>,
                   %t: memref<3x8xf32>, %z: memref<3x2xf32>) {
  linalg.transpose ins(%x : memref<8x3xf32>) outs(%t : memref<3x8xf32>)
    permutation = [1, 0]
  linalg.matmul ins(%t, %y : memref<3x8xf32>, memref<8x2xf32>)
                outs(%z : memref<3x2xf32>)
  return
}

// One transpose read by both operands of a matmul and by a second matmul
// is folded into all three maps and erased once.
// CHECK-LABEL: func.func @read_thrice
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[NK]], #[[MN]]] ins(%arg0, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] ins(%arg0, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
func.func @read_thrice(%x: tensor<4x4xf32>, %z: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %xt = linalg.transpose ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>)
          permutation = [1, 0]
  %g = linalg.matmul ins(%xt, %xt : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = linalg.matmul ins(%xt, %g : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %h : tensor<4x4xf32>
}
