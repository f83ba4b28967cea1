// loops.mlir through the cuda backend: its host code, too, runs a collective
// in a loop in constant stack and without a buffer per step.
// REQUIRES: cuda-toolkit
// RUN: pcc-opt %S/loops.mlir --split-input-file --pass-pipeline="builtin.module(pcc-cuda-pipeline)" | FileCheck %s --check-prefix=CUDA
// CUDA-LABEL: llvm.func @main_pmap(
// CUDA: llvm.cond_br
// CUDA-NOT: _mlir_memref_to_llvm_aligned_alloc
// CUDA-NOT: llvm.alloca
// CUDA: llvm.call @pcc_collective(
// CUDA-NOT: llvm.alloca
// CUDA: llvm.return

// The second program's kernels in the loop: each launch's argument slots
// are freed when it returns, and nothing is allocated per step.
// CUDA-LABEL: llvm.func @main_pmap(
// CUDA: llvm.cond_br
// CUDA-NOT: _mlir_memref_to_llvm_aligned_alloc
// CUDA: %[[K:.*]] = llvm.intr.stacksave
// CUDA-NOT: _mlir_memref_to_llvm_aligned_alloc
// CUDA: gpu.launch_func
// CUDA-NEXT: llvm.intr.stackrestore %[[K]]
// CUDA-NOT: _mlir_memref_to_llvm_aligned_alloc
// CUDA: llvm.return
