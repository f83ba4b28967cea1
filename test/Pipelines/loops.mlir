// A collective in a loop runs in constant stack and without a heap buffer
// per step: the sum is written in place of the loop's value (allocated once,
// before the loop), and the call passes pointers, nothing on the stack.
// (test/pcc/long-loops.test runs such loops end to end.)
// RUN: pcc-opt %s --split-input-file --pass-pipeline="builtin.module(pcc-cpu-pipeline)" | FileCheck %s

// CHECK-LABEL: llvm.func @main_pmap(
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.cond_br
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @pcc_collective(
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
func.func @main() -> tensor<8xi64> {
  %d = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64>
  %r = spmd.pmap "i" (%x = %d : tensor<8xi64>) -> tensor<8xi64> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 200000 : index
    %z = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<i64> {
      %s = spmd.psum %a over "i" : tensor<i64>
      scf.yield %s : tensor<i64>
    }
    spmd.yield %z : tensor<i64>
  }
  return %r : tensor<8xi64>
}

// -----

// Ops that compute into empty tensors, a gather and a reduction, in a loop:
// their buffers are allocated once, before the loop (pcc-reuse-loop-buffers
// has the reduction accumulate into the loop's own value, buffer loop
// hoisting moves the others out).
// CHECK-LABEL: llvm.func @main_pmap(
// CHECK-COUNT-3: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.cond_br
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.call @pcc_collective(
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.br ^bb1
// CHECK-NOT: _mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
#id = affine_map<(d0) -> (d0)>
func.func @main(%x0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %x0 : tensor<2x4xf32>) -> tensor<2x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 100 : index
    %z = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%p: f32, %o: f32):
        %q = arith.mulf %p, %p : f32
        linalg.yield %q : f32
      } -> tensor<4xf32>
      %g = spmd.all_gather %m over "i" : tensor<4xf32> -> tensor<2x4xf32>
      %zero = arith.constant 0.0 : f32
      %e2 = tensor.empty() : tensor<4xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
      %s = linalg.reduce ins(%g : tensor<2x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
        (%in: f32, %acc: f32) {
          %t = arith.addf %in, %acc : f32
          linalg.yield %t : f32
        }
      scf.yield %s : tensor<4xf32>
    }
    spmd.yield %z : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}
