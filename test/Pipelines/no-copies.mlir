// A pmap whose body reduces across devices or computes elementwise reads
// its slices of the arguments where they are and writes straight into the
// caller's result buffers: no buffer is allocated and nothing is copied on
// the way (bench/ measures what that is worth).
// RUN: pcc-opt %s --split-input-file --pass-pipeline="builtin.module(pcc-cpu-pipeline)" | FileCheck %s

// CHECK-LABEL: module
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.call @pcc_collective
func.func @main(%x: tensor<2x1024xf32>) -> tensor<2x1024xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<2x1024xf32>) -> (tensor<2x1024xf32>) {
    %s = spmd.psum %a over "i" : tensor<1024xf32>
    spmd.yield %s : tensor<1024xf32>
  }
  return %r : tensor<2x1024xf32>
}

// -----

// CHECK-LABEL: module
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.call @pcc_collective
func.func @main(%x: tensor<2x1024xf32>) -> tensor<2x2048xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<2x1024xf32>) -> (tensor<2x2048xf32>) {
    %g = spmd.all_gather %a over "i" tiled : tensor<1024xf32> -> tensor<2048xf32>
    spmd.yield %g : tensor<2048xf32>
  }
  return %r : tensor<2x2048xf32>
}

// -----

// CHECK-LABEL: module
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.fmul
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.intr.memcpy
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<2x1024xf32>, %b: tensor<2x1024xf32>,
                %c: tensor<2x1024xf32>) -> tensor<2x1024xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x1024xf32>, %y = %b : tensor<2x1024xf32>,
                      %z = %c : tensor<2x1024xf32>) -> (tensor<2x1024xf32>) {
    %init = tensor.empty() : tensor<1024xf32>
    %out = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                           iterator_types = ["parallel"]}
        ins(%x, %y, %z : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>)
        outs(%init : tensor<1024xf32>) {
    ^bb0(%p: f32, %q: f32, %s: f32, %o: f32):
      %m = arith.mulf %p, %q : f32
      %v = arith.addf %m, %s : f32
      linalg.yield %v : f32
    } -> tensor<1024xf32>
    spmd.yield %out : tensor<1024xf32>
  }
  return %r : tensor<2x1024xf32>
}
