// After lowering, the only external functions are the runtime's (its
// allocator among them) and a fixed list of libm functions.
// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-verify-closed="lowered=true"

llvm.func @pcc_launch(i64, !llvm.ptr, !llvm.ptr)
llvm.func @pcc_collective(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
llvm.func @pcc_cuda_launch(i64, !llvm.ptr, !llvm.ptr)
llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// Storage of the program's own, without an initializer (GPU shared memory).
llvm.mlir.global internal @__wg_kernel_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>

// -----

// expected-error @+1 {{the lowered program calls the external function @system, which is neither the pcc runtime nor an allowed math function}}
llvm.func @system(!llvm.ptr) -> i32

// -----

llvm.func @f() {
  // expected-error @+1 {{the lowered program contains inline assembly}}
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  llvm.return
}

// -----

// expected-error @+1 {{the lowered program refers to the external global @environ}}
llvm.mlir.global external @environ() : !llvm.ptr

// -----

// expected-error @+1 {{the lowered program refers to the external global @weak}}
llvm.mlir.global extern_weak @weak() : !llvm.ptr

// -----

// Not even the C library's allocator: buffers come from the runtime, which
// enforces the memory limit.
// expected-error @+1 {{the lowered program calls the external function @malloc, which is neither the pcc runtime nor an allowed math function}}
llvm.func @malloc(i64) -> !llvm.ptr
