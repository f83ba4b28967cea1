//===- Passes.td - pcc's transformations of spmd programs ----------------===//
//
// Passes that rewrite spmd programs on tensors towards what the backends
// lower. The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TRANSFORMS_PASSES_TD
#define PCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SPMDExpandPmean : Pass<"spmd-expand-pmean"> {
  let summary = "Rewrite spmd.pmean as spmd.psum and a division";
  let description = [{
    A mean over N devices is their sum divided by N (JAX defines
    `lax.pmean` the same way), so the backends only implement sums. The
    division happens in the operand's own type, as in JAX.

    ```mlir
    // before, inside a pmap of 4 devices
    %m = spmd.pmean %x over "i" : tensor<3xf32>
    // after
    %s = spmd.psum %x over "i" : tensor<3xf32>
    %n = arith.constant dense<4.000000e+00> : tensor<3xf32>
    %m = arith.divf %s, %n : tensor<3xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPMDOutlinePmaps : Pass<"spmd-outline-pmaps", "mlir::ModuleOp"> {
  let summary = "Outline pmap bodies into device functions run on a grid";
  let description = [{
    Each outermost `spmd.pmap` becomes a device function and an
    `spmd.launch` that runs it on every device. Nested pmaps are flattened
    into one row-major grid: an inner pmap over `"j"` becomes inline code
    whose mapped operands are sliced at `spmd.axis_index "j"` and whose
    results are `spmd.all_gather ... over "j"` of what it yielded. Code of
    the outer body then runs on every `"j"` device alike, which is correct
    because it is deterministic and its collectives group devices that agree
    on `"j"`.

    The device function takes its linear device index (`i64`), the whole
    mapped operands and captured values as memrefs (a scalar as a rank-0
    memref), and one output memref per result, and names its grid in
    `spmd.grid_axes` / `spmd.grid_sizes`. Devices whose inner coordinates are
    all 0 write their slice of each output: the output is read as a tensor
    at the entry, the slice inserted with `tensor.insert_slice`, and the
    whole stored back with `bufferization.materialize_in_destination` (in
    place, after bufferization), so that bufferization sees every write into
    an output. The launch is in destination-passing style on tensors and
    carries `work`, the elements one device reads and writes, where they can
    be counted (static shapes and trip counts, no calls): the runtime runs
    small launches on one thread.

    ```mlir
    // before
    %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4xf32>) {...}
    // after
    %init = tensor.empty() : tensor<4xf32>
    %r = spmd.launch @main_pmap devices 4(%a) outs(%init) {work = 15 : i64}
        : (tensor<4x3xf32>) -> tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def SPMDLowerCollectives : Pass<"spmd-lower-collectives", "mlir::ModuleOp"> {
  let summary = "Lower collectives in device functions to pcc runtime calls";
  let description = [{
    In device functions made by `spmd-outline-pmaps`, `spmd.axis_index`
    becomes arithmetic on the device index, and each collective an
    `spmd.runtime_call` of the pcc runtime, still on tensors:
    `pcc_mlir_all_reduce_<type>` for psum, pmax and pmin,
    `pcc_mlir_all_gather_<type>` for all_gather (which stacks at dimension
    0; a `linalg.transpose` and a `tensor.collapse_shape` then produce
    `axis K` and `tiled`). Besides the device, the grid and the group, each
    call takes a string naming the collective and its source location, for
    the runtime's errors.

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
    %s = spmd.runtime_call @pcc_mlir_all_reduce_f32(%device, %grid, %mask,
             %sum, %site, %x) outs(%e) {elementwise} : (...) -> tensor<3xf32>
             -> tensor<3xf32>
    ```
  }];
  let options = [
    Option<"stridedOperands", "strided-operands", "bool", /*default=*/"true",
           "Pass buffers in their own layout (false: copy them to contiguous "
           "buffers first, as the cuda backend needs)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::tensor::TensorDialect"];
}

def SPMDLowerRuntimeCalls : Pass<"spmd-lower-runtime-calls",
                                 "mlir::ModuleOp"> {
  let summary = "Turn spmd.runtime_call on buffers into func.call";
  let description = [{
    Replaces each bufferized `spmd.runtime_call` by a `func.call` of its
    callee (declared once, private, with MLIR's C interface), passing every
    buffer as an unranked memref. The unranked descriptors are stack slots:
    each call is wrapped in a `memref.alloca_scope`, which frees them when
    the call returns, or a call in a loop would grow the stack every step.
    Runs after the last canonicalization, which would inline the scope (it
    holds no `memref.alloca` of its own), and after `convert-scf-to-cf`,
    since the scope lowers into its parent's blocks.

    ```mlir
    spmd.runtime_call @pcc_mlir_all_reduce_f32(%device, %grid, %mask, %sum,
        %site, %in) outs(%out) : (...) -> memref<3xf32>
    // becomes
    memref.alloca_scope {
      %g = memref.cast %grid : memref<1xi64> to memref<*xi64>
      ...
      func.call @pcc_mlir_all_reduce_f32(%device, %g, %mask, %sum, %s, %i, %o)
    }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def SPMDLaunchToLLVM : Pass<"convert-spmd-launch-to-llvm", "mlir::ModuleOp"> {
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

def PCCCopyConstantGlobals : Pass<"pcc-copy-constant-globals",
                                  "mlir::ModuleOp"> {
  let summary = "Give constants buffers that every GPU can reach";
  let description = [{
    Bufferized constants (`arith.constant dense<...>`) read from
    `memref.global`s, which live in the host executable's memory, where GPU
    kernels cannot read them. For the cuda backend, this pass replaces each
    `memref.get_global` of a constant in a function by a fresh buffer
    (`memref.alloc`, which the cuda pipeline allocates as managed memory)
    filled from the global with `memref.copy` on the host. It runs before
    buffer deallocation, which then frees the copies.

    ```mlir
    %g = memref.get_global @__constant_4xf32 : memref<4xf32>
    // becomes
    %c = memref.get_global @__constant_4xf32 : memref<4xf32>
    %g = memref.alloc() : memref<4xf32>
    memref.copy %c, %g : memref<4xf32> to memref<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def PCCVerifyClosed : Pass<"pcc-verify-closed", "mlir::ModuleOp"> {
  let summary = "Reject programs that could run code outside themselves";
  let description = [{
    A `.mlir` file is code, and pcc runs it in its own process: it must run
    only what the program defines and what the pcc runtime provides. On the
    input (the default), the pass rejects ops of dialects outside SPEC §1
    (so no `llvm.call`, `llvm.inline_asm` or `llvm.mlir.addressof`) and
    functions declared without a body (`func.func private @system(...)`),
    each with an error naming the op or the symbol, and types whose size in
    bytes exceeds 2^48 (256 TiB), or `memory-limit` for a value the program
    uses (`pcc run` passes its memory limit, so that a program that cannot
    fit stops before it runs, at the op that needs too much).

    With `lowered`, it checks the LLVM dialect module that goes to the JIT:
    the only external functions are the pcc runtime's entry points (its
    `_mlir_memref_to_llvm_*` allocator among them) and a fixed list of libm
    functions (`erff`, `tan`, ...), and there is no inline assembly and no
    external global. The cpu pipeline runs it first and last.
  }];
  let options = [
    Option<"lowered", "lowered", "bool", /*default=*/"false",
           "Check the lowered LLVM dialect module instead of the input">,
    Option<"memoryLimit", "memory-limit", "int64_t", /*default=*/"0",
           "Reject values of more bytes than this (0: no limit)">,
  ];
}

def PCCEntryABI : Pass<"pcc-entry-abi", "mlir::ModuleOp"> {
  let summary = "Give the entry function a C ABI of memref arguments and out-parameters";
  let description = [{
    Adds `@_pcc_entry`, the function the `pcc` driver calls, next to the
    entry function (`entry`, default `@main`). Every argument of the entry
    becomes a memref argument (a rank-0 memref for a scalar), and every
    result a memref out-parameter that the caller allocates, so the driver
    passes each value as a pointer to a memref descriptor through
    `_mlir_ciface__pcc_entry` and owns all buffers. The entry function itself
    becomes private.

    ```mlir
    // before
    func.func @main(%a: tensor<4x3xf32>, %s: f32) -> tensor<4xf32>
    // after
    func.func private @main(%a: tensor<4x3xf32>, %s: f32) -> tensor<4xf32>
    func.func @_pcc_entry(%a: memref<4x3xf32>, %s: memref<f32>,
                          %r0: memref<4xf32>)
        attributes {llvm.emit_c_interface} {
      // to_tensor / memref.load the arguments, call @main,
      // materialize_in_destination / memref.store the results
    }
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The entry function to wrap">,
  ];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect"];
}

def PCCEntryResultsInPlace : Pass<"pcc-entry-results-in-place",
                                  "mlir::ModuleOp"> {
  let summary = "Write the entry's results straight into the caller's buffers";
  let description = [{
    After bufferization and `buffer-results-to-out-params`, `@_pcc_entry`
    (see `pcc-entry-abi`) typically allocates a buffer, has it filled (a
    call of the entry, a pmap launch) and copies it into a result
    out-parameter. When that copy is the out-parameter's only use, the
    buffer is replaced by the out-parameter: the copy, which runs on one
    thread, and the allocation disappear. This is sound because the caller
    passes distinct buffers for every argument and result.

    ```mlir
    // before
    %alloc = memref.alloc() : memref<4xf32>
    call @main(%a, %alloc) : (memref<4x3xf32>, memref<4xf32>) -> ()
    memref.copy %alloc, %r0 : memref<4xf32> to memref<4xf32>
    // after
    call @main(%a, %r0) : (memref<4x3xf32>, memref<4xf32>) -> ()
    ```
  }];
}

def PCCDefineIntegerDivision : Pass<"pcc-define-integer-division"> {
  let summary = "Give integer division by zero and overflow defined results";
  let description = [{
    An integer division by zero, or `INT_MIN / -1`, is undefined behaviour
    in LLVM: on x86 it raises SIGFPE, on a GPU it gives whatever the
    hardware gives. pcc defines them as XLA does, alike on every backend:

    | op | `y == 0` | `x == INT_MIN, y == -1` |
    |---|---|---|
    | `divsi`, `ceildivsi`, `floordivsi` | -1 | `INT_MIN` |
    | `remsi` | `x` | 0 |
    | `divui`, `ceildivui` | all ones (-1) | |
    | `remui` | `x` | |

    Each division whose divisor is not a constant that needs no guard
    divides by 1 in those cases instead and selects the defined result:

    ```mlir
    %q = arith.divsi %x, %y : i32
    // becomes
    %bad = arith.ori %is_zero, %overflows : i1     // y == 0, or x == INT_MIN and y == -1
    %d = arith.select %bad, %c1, %y : i32
    %q0 = arith.divsi %x, %d : i32                  // x when y is replaced
    %q = arith.select %is_zero, %c-1, %q0 : i32
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def PCCRenameUserSymbols : Pass<"pcc-rename-user-symbols", "mlir::ModuleOp"> {
  let summary = "Give the program's own symbols names no library can have";
  let description = [{
    Generated code calls functions by name: libm's (`expf`, from
    `convert-math-to-libm`), libc's (`memcpy` and `memset`, which LLVM calls
    for copies), compiler-rt's. A program that defines a function or global
    of such a name would receive those calls (its `@expf` would be what
    `math.exp` computes), and in an executable of `pcc compile` would replace
    the library's for the runtime too. This pass prefixes every function and
    global the program defined with `u.`, which no C identifier can start
    with, and updates every use. It runs after the passes whose diagnostics
    name the program's functions, and before any lowering that calls a
    library. (Device functions and `@_pcc_entry` are pcc's, and keep their
    names: `--emit=llvm` shows `@u.main` beside `@main_pmap`.)
  }];
}

def PCCReuseLoopBuffers : Pass<"pcc-reuse-loop-buffers",
                                "mlir::func::FuncOp"> {
  let summary = "Compute a loop's next value into its current one";
  let description = [{
    A value that an `scf.for` body yields is often computed into a fresh
    `tensor.empty` (a `linalg.generic` with an empty `outs`, a
    `linalg.reduce` into a `linalg.fill` of one). Bufferization then
    allocates a buffer every step, and the previous step's is freed. This
    pass makes the op that writes such an empty tensor write into the
    loop's value for that position instead (following `outs` through the
    linalg ops and runtime calls that produce the yielded value), which is
    always correct, since an empty tensor's contents are unspecified and
    the op does not read them. One-Shot Bufferize then computes in place of
    the loop's buffer when nothing reads the old value afterwards (no
    allocation per step), and in a fresh buffer, as before, otherwise.

    ```mlir
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %m = linalg.generic ... ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) ...
      scf.yield %m : tensor<4xf32>
    }
    // becomes
      %m = linalg.generic ... ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) ...
    ```
  }];
}

def PCCLowerStridedCopies : Pass<"pcc-lower-strided-copies",
                                 "mlir::func::FuncOp"> {
  let summary = "Turn copies between non-contiguous buffers into linalg.copy";
  let description = [{
    `memref.copy` between contiguous buffers lowers to `memcpy`; any other
    (a column of a matrix, say) would call MLIR's `memrefCopy` runtime
    function, which the closed JIT does not allow (see
    `pcc-verify-closed`). This pass makes those copies `linalg.copy`, which
    lowers to loops like any other linalg op.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def PCCReassociateReductions : Pass<"pcc-reassociate-reductions",
                                    "mlir::func::FuncOp"> {
  let summary = "Allow float reductions to be reordered, so that they vectorize";
  let description = [{
    Marks `arith.addf` and `arith.mulf` in the bodies of linalg ops with a
    reduction loop `reassoc`, so that LLVM may split a sum or product into
    several partial results (vector lanes, interleaved accumulators) instead
    of a chain of dependent operations. The result's rounding then depends
    on the vector width, as it does under XLA; elementwise ops and
    collectives are not affected (collectives reduce in rank order).

    ```mlir
    linalg.reduce ins(%x : memref<4x1024xf32>) outs(%s : memref<4xf32>)
        dimensions = [1]
      (%in: f32, %acc: f32) {
        %0 = arith.addf %in, %acc fastmath<reassoc> : f32
        linalg.yield %0 : f32
      }
    ```
  }];
}

def PCCMatmulToRuntime : Pass<"pcc-matmul-to-runtime", "mlir::ModuleOp"> {
  let summary = "Call the runtime's GEMM for linalg.matmul on f32 and f64 buffers";
  let description = [{
    On the cpu backend, replaces each `linalg.matmul` on f32 or f64 memrefs
    whose rows are contiguous (innermost stride 1) and whose indexing maps
    are the default ones by a call of `pcc_mlir_matmul_f32` / `_f64`, the
    runtime's blocked and vectorized GEMM (C += A * B), the way XLA's CPU
    backend calls Eigen. Other matmuls are left to become loops.

    ```mlir
    // before
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    // after
    %0 = memref.cast %a : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @pcc_mlir_matmul_f32(%0, %1, %2) : (...) -> ()
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def PCCLinalgToGPU : Pass<"pcc-linalg-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Launch reductions and matmuls as kernels whose threads "
                "cooperate";
  let description = [{
    For the cuda backend, on buffers, before the remaining linalg ops become
    parallel loops (one thread per output element). A reduction over at
    least 64 elements per output, whose body folds a value into the
    accumulator with one arith op (`addf`, `mulf`, `maxnumf`, `minimumf`,
    `addi`, `maxsi`, `andi`, ...; f32, f64, i32 or i64), gets one block per
    output element: its threads fold strided shares of the reduction space,
    then combine them with `gpu.all_reduce`. `linalg.matmul` and
    `linalg.batch_matmul` on f32 or f64 become 16x16 output tiles with A and
    B staged through shared memory (workgroup attributions), 16 values of K
    at a time, between `gpu.barrier`s. Buffer copies (`memref.copy`) become
    `linalg.copy`, so that they run as kernels rather than on the host,
    except copies out of a `memref.get_global` (host memory).
    `device-copies=false` leaves copies on the host (over managed memory):
    slower, but what tests on the runtime's mock driver, which cannot run
    kernels, need.

    ```mlir
    linalg.reduce ins(%x : memref<4096xf32>) outs(%s : memref<f32>) dimensions = [0]
      (%in: f32, %acc: f32) { %0 = arith.addf %in, %acc : f32  linalg.yield %0 : f32 }
    // becomes
    gpu.launch blocks(...) in (1, 1, 1) threads(%tx, ...) in (256, 1, 1) {
      %part = scf.for %r = %tx to 4096 step 256 iter_args(%a = -0.0) { ... }
      %sum = gpu.all_reduce add %part uniform {} : (f32) -> f32
      scf.if %tx == 0 { store (load %s) + %sum }
    }
    ```
  }];
  let options = [
    Option<"deviceCopies", "device-copies", "bool", /*default=*/"true",
           "Run buffer copies as GPU kernels">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def PCCGPULowerAllReduce : Pass<"pcc-gpu-lower-all-reduce",
                                "mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.all_reduce to warp shuffles and shared memory";
  let description = [{
    Runs MLIR's all-reduce rewrite inside outlined kernels (it needs the
    kernel function, to which it adds a workgroup buffer), and splits 64-bit
    shuffles into 32-bit ones, so that convert-gpu-to-nvvm sees only
    `gpu.shuffle` on 32-bit values and barriers.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::memref::MemRefDialect"];
}

def PCCScopeKernelLaunches : Pass<"pcc-scope-kernel-launches",
                                   "mlir::ModuleOp"> {
  let summary = "Free each kernel launch's argument slots when it returns";
  let description = [{
    Translating `gpu.launch_func` to LLVM IR puts the kernel's arguments in
    stack slots where the launch is, and nothing frees them: a launch in a
    loop would grow the device thread's stack every step. This pass wraps
    each launch in host code in a `memref.alloca_scope`, which lowers to a
    stack save before the launch and a restore after it. Like
    `spmd-lower-runtime-calls`, it runs after `convert-scf-to-cf` and the
    last canonicalization.

    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>)
    // becomes
    memref.alloca_scope {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>)
    }
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def PCCCollapseParallelLoops : Pass<"pcc-collapse-parallel-loops",
                                     "mlir::func::FuncOp"> {
  let summary = "Collapse each outermost scf.parallel nest into one dimension";
  let description = [{
    For the cuda backend, before parallel loops are tiled and mapped to GPU
    blocks and threads: a nest `(i, j, k)` becomes one loop over `i*J*K +
    j*K + k`, so that tiling by 256 gives blocks of 256 threads whose
    neighbours touch neighbouring (row-major) elements, and the grid uses
    only its x dimension (2^31 - 1 blocks; y and z allow only 65535).
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

#endif // PCC_TRANSFORMS_PASSES_TD
