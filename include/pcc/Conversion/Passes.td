//===- Passes.td - spmd to the runtime and to LLVM ---------*- tablegen -*-===//
//
// Conversions of the spmd dialect: collectives into runtime calls, runtime
// calls into function calls, and launches into calls of the runtime.
// The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CONVERSION_PASSES_TD
#define PCC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def PCCLowerCollectives : Pass<"pcc-lower-collectives", "mlir::ModuleOp"> {
  let summary = "Lower collectives in device functions to pcc runtime calls";
  let description = [{
    In device functions made by `pcc-outline-pmaps`, `spmd.axis_index`
    becomes arithmetic on the device index, and each collective an
    `spmd.runtime_call` of the runtime's `pcc_collective`, still on
    tensors: an all-reduce for psum, pmax and pmin; an all-gather for
    all_gather (which stacks at dimension 0; a `linalg.transpose` and a
    `tensor.collapse_shape` then produce `axis K` and `tiled`); a
    reduce-scatter for psum_scatter and an all-to-all for all_to_all (on
    parts stacked at dimension 0: `dim`/`split` is brought to the front
    first, split into blocks when `tiled`); a permute for ppermute,
    pshuffle and pbroadcast. Everything about a call site is known when the
    program is compiled (collectives take statically shaped values), so
    each call passes it as constants: the site (kind, element type,
    reduction, element count, a hash of the shape, the axes, the grid's
    sizes: the runtime's `pcc_collective_site`), a table (the `groups`, or
    the member each one receives from for the permutes; empty otherwise)
    and a string naming the collective and its source location, for the
    runtime's errors; then the device and the input. An `over` list in
    other than grid order has its parts reordered between the written order
    and the runtime's.

    The calls are in destination-passing style, so that One-Shot Bufferize
    sees what they read and write. Each writes an empty tensor, which
    empty-tensor elimination replaces by the pmap's result slice where the
    result goes there. A reduction is `elementwise`, so that it may write in
    place of its input: `pcc-reuse-loop-buffers` has a sum that a loop
    carries write in place of the loop's value (no buffer per step).

    ```mlir
    %s = spmd.psum %x over "i" : tensor<3xf32>
    // becomes
    %e = tensor.empty() : tensor<3xf32>
    %s = spmd.runtime_call @pcc_collective(%site, %groups, %text, %device,
             %x) outs(%e) {elementwise}
           : (memref<9xi64>, memref<0xi64>, memref<40xi8>, i64,
              tensor<3xf32>) -> tensor<3xf32> -> tensor<3xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::tensor::TensorDialect"];
}

def PCCGenerateRuntimeChecks : Pass<"pcc-generate-runtime-checks",
                                     "mlir::ModuleOp"> {
  let summary = "Check indices and run-time sizes, naming the values";
  let description = [{
    Before each of the program's ops that would read, write or allocate
    out of bounds with bad values known only at run time, a check that calls
    the runtime's `pcc_mlir_check_failed` with a located message and the
    values: `tensor.extract` and `tensor.insert` (each index within its
    axis, `prog.mlir:6:10: 'tensor.insert': index 7 is out of bounds for
    axis 0 with size 4`, as NumPy's IndexError says it), `tensor.empty`,
    `tensor.generate` and `tensor.splat` with dynamic sizes (none negative,
    the whole no larger than 2^48 bytes, so that the allocation's size
    cannot wrap around), `tensor.reshape` to a dynamic shape (as many
    elements as the source), `tensor.expand_shape` with sizes given at run
    time (they multiply to the axis they split), `tensor.pad` by amounts
    given at run time (none negative), `tensor.extract_slice`,
    `tensor.insert_slice` and `tensor.parallel_insert_slice` with offsets,
    sizes or strides given at run time (each axis's slice within the axis,
    an empty one at most at its end; an inserted tensor of the slice's
    sizes), `tensor.concat` of tensors whose sizes are known at run time
    only (they make the result's), `tensor.pad` into a static shape (the
    padding makes it), `bufferization.alloc_tensor` (as `tensor.empty`)
    and `bufferization.materialize_in_destination` (the source has the
    destination's sizes), elementwise ops on such tensors (the operands'
    sizes agree), linalg ops on them (an axis that a loop indexes has the
    loop's size, as the verifier checks static ones; other indexing, such
    as `d0 - d1 + 3` or `d0 mod 3`, stays within its axis over all the
    loops' steps, bounded by interval arithmetic) and loops whose bounds or
    step are given at run time (a positive step: 0 or less would loop
    forever; and no overflow when the induction variable steps past its
    last value, which would wrap around). Upstream's
    `generate-runtime-verification` covers the rest (casts), without values;
    `pcc-lower-runtime-checks` drops its checks of the ops checked here.
    `kernel-bodies=false` leaves out the ops inside linalg ops, which the
    cuda backend turns into GPU kernels that cannot call the runtime (the
    simulated GPU checks every access of its kernels itself).
  }];
  let options = [
    Option<"kernelBodies", "kernel-bodies", "bool", /*default=*/"true",
           "Also check the ops inside linalg ops' bodies">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def PCCLowerRuntimeChecks : Pass<"pcc-lower-runtime-checks",
                                  "mlir::ModuleOp"> {
  let summary = "Turn failed run-time checks into a located runtime error";
  let description = [{
    After upstream's `generate-runtime-verification` has put a `cf.assert`
    before each of the program's ops that can go wrong at run time (a
    `tensor.cast` to a static shape, `tensor.dim` of an axis the tensor may
    not have, and the indexing ops), each assertion becomes a
    branch to a call of the runtime's `pcc_mlir_check_failed` with a string that
    names where and what: `prog.mlir:7:10: 'tensor.cast': size mismatch of
    dim 0`. Checks of `tensor.extract`, `tensor.insert` and
    `tensor.extract_slice` are dropped: pcc-generate-runtime-checks makes
    its own, which name the values. The
    runtime prints it as `pcc runtime error: ...` and ends the process with
    status 1, from any device thread, instead of reading or writing memory
    that is not the value's. `kernel-bodies=false` drops the checks inside
    linalg ops, which the cuda backend turns into GPU kernels (these check
    their accesses themselves: pcc-check-kernel-accesses).
  }];
  let options = [
    Option<"kernelBodies", "kernel-bodies", "bool", /*default=*/"true",
           "Keep the checks inside linalg ops' bodies">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect"];
}

def PCCGuardRecursion : Pass<"pcc-guard-recursion", "mlir::ModuleOp"> {
  let summary = "Check the stack at the entry of functions that may recurse";
  let description = [{
    A device's stack is fixed (16 MiB, a fiber's or its thread's), and
    recursion is the one way a pcc program can use it up: programs cannot
    allocate on the stack, and calls without recursion nest no deeper than
    the program is long. Every function that may recurse — one in a cycle of
    the call graph, or one whose address is taken with `func.constant`,
    which `func.call_indirect` may reach again — gets a call of the
    runtime's `pcc_mlir_check_stack` at its entry, with a string naming it
    (`prog.mlir:3:1: @f`). The runtime ends the run with an error naming the
    function and the device once less than 256 KiB of the stack is left,
    instead of the signal of an overflow. Functions that cannot recurse are
    left alone, at no cost.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect"];
}

def PCCLowerRuntimeCalls : Pass<"pcc-lower-runtime-calls",
                                 "mlir::ModuleOp"> {
  let summary = "Turn spmd.runtime_call on buffers into func.call";
  let description = [{
    Replaces each bufferized `spmd.runtime_call` by a `func.call` of its
    callee (declared once, private), passing each buffer as a pointer to its
    first element (its aligned pointer plus its offset) and scalars as they
    are. Its buffers are contiguous, which bufferization saw to.

    ```mlir
    spmd.runtime_call @pcc_collective(%site, %groups, %text, %device, %in)
        outs(%out) : (...) -> memref<3xf32, strided<[1], offset: ?>>
    // becomes
    %p = memref.extract_aligned_pointer_as_index %site : memref<9xi64> -> index
    %q = arith.index_cast %p : index to i64
    %s = llvm.inttoptr %q : i64 to !llvm.ptr
    ...
    %b, %offset, %size, %stride = memref.extract_strided_metadata %out : ...
    // (%o: the aligned pointer of %out plus 4 * %offset, as a pointer)
    func.call @pcc_collective(%s, %g, %t, %device, %i, %o)
        : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect"];
}

def PCCConvertLaunchToLLVM : Pass<"pcc-convert-launch-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower spmd.launch to a call of the pcc runtime";
  let description = [{
    Runs after the standard conversions to the LLVM dialect. Each
    `spmd.launch @f devices N (buffers)` stores its memref descriptors in an
    array and calls `pcc_launch(N, @f_thunk, array, work)` (work -1 where
    the launch has none); `@f_thunk(args, device)` passes the descriptors to `_mlir_ciface_f`, the C interface of
    the device function. The cuda pipeline names its own launch function,
    `pcc_cuda_launch`, which binds each device thread to its GPU and stream.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"launchFunction", "launch-function", "std::string",
           /*default=*/"\"pcc_launch\"",
           "The runtime function that runs the device threads">,
  ];
}

#endif // PCC_CONVERSION_PASSES_TD
