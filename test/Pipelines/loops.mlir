// A collective in a loop runs in constant stack and without a heap buffer
// per step: the sum is written in place of the loop's value (allocated once,
// before the loop), and the call's memref descriptors live between a stack
// save and restore. (test/pcc/long-loops.test runs such loops end to end.)
// RUN: pcc-opt %s --pass-pipeline="builtin.module(pcc-cpu-pipeline)" | FileCheck %s

// CHECK-LABEL: llvm.func @main_pmap(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-NOT: llvm.alloca
// CHECK: llvm.cond_br
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: %[[SP:.*]] = llvm.intr.stacksave
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: llvm.alloca
// CHECK-NOT: _mlir_memref_to_llvm_alloc
// CHECK: llvm.call @pcc_mlir_all_reduce_i64(
// CHECK-NEXT: llvm.intr.stackrestore %[[SP]]
// CHECK-NOT: _mlir_memref_to_llvm_alloc
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
