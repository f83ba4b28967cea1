//===- Passes.td - code generation for the cuda backend ----*- tablegen -*-===//
//
// How the cuda backend turns buffers of linalg ops into GPU kernels:
// cooperative reductions and matmuls, collapsed parallel loops, all-reduce
// lowered after outlining, and the host-side setup the kernels need.
// The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CODEGEN_CUDA_PASSES_TD
#define PCC_CODEGEN_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def PCCSequentialLoops : Pass<"pcc-sequential-loops",
                                    "mlir::func::FuncOp"> {
  let summary = "Run each scf.parallel that reduces, that is inside "
                "another or that runs collectives, and each linalg op that "
                "runs collectives, as nested scf.for loops";
  let description = [{
    For the cuda backend, before parallel loops are mapped to GPU blocks
    and threads, which takes loops without results only: a program's
    `scf.parallel` with `init` values and `scf.reduce` becomes a nest of
    `scf.for` loops carrying the reduced values, combined in iteration
    order by the `scf.reduce` regions, as the cpu backend runs it.

    So does an `scf.parallel` inside another or inside a kernel that
    pcc-linalg-to-gpu made (a buffer copied in a linalg op's body): each
    thread runs one iteration of the outer loop, and the inner one within
    it. Mapped to the
    threads of a block instead, each thread ran one iteration of the inner
    loop but all of the outer body around it, and a buffer the outer body
    allocated was a different one in each thread: a per-element copy of a
    tensor was filled in one element only.

    And so does every `scf.parallel` and linalg op whose body, at any
    depth or in a function it calls, runs a collective
    (`spmd.runtime_call`) or launches a pmap (`spmd.launch`), which only
    the host can: a linalg op becomes `scf.for` loops on the host, and the
    linalg ops and loops inside its body may still become kernels.

    ```mlir
    %r = scf.parallel (%j) = (%c0) to (%c10) step (%c3) init(%zero) -> i64 {
      %v = arith.index_cast %j : index to i64
      scf.reduce(%v : i64) {
      ^bb0(%a: i64, %b: i64):
        %s = arith.addi %a, %b : i64
        scf.reduce.return %s : i64
      }
    }
    // becomes
    %r = scf.for %j = %c0 to %c10 step %c3 iter_args(%acc = %zero) -> (i64) {
      %v = arith.index_cast %j : index to i64
      %s = arith.addi %acc, %v : i64
      scf.yield %s : i64
    }
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
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

def PCCNameKernels : Pass<"pcc-name-kernels", "mlir::ModuleOp"> {
  let summary = "Give outlined kernels names that PTX accepts";
  let description = [{
    `gpu-kernel-outlining` names a kernel and its `gpu.module` after the
    function it came from, `@u.main` for a program's `@main`
    (`pcc-rename-user-symbols`), and PTX names may not hold a `.`. This pass
    replaces every `.` in the names of kernel modules and kernels with `_`
    (adding a number where that name is taken), and updates every
    `gpu.launch_func`.
  }];
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
    `pcc-lower-runtime-calls`, it runs after `convert-scf-to-cf` and the
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

def PCCGPUKernelsToHost : Pass<"pcc-gpu-kernels-to-host", "mlir::ModuleOp"> {
  let summary = "Compile GPU kernels as host functions for the simulated GPU";
  let description = [{
    For `--backend=cuda-sim`, after kernel outlining and the lowering of
    `gpu.all_reduce`, in place of the NVVM lowering. Each kernel
    `@M::@K` of a `gpu.module` becomes a host function `@pcc.sim.M.K` with
    the kernel's arguments and a last one, the simulated thread (a
    `pcc_sim_thread *` of the runtime), whose fields the thread, block,
    block size and grid size ids read; `gpu.barrier` and `gpu.shuffle`
    become calls of `pcc_sim_barrier` and `pcc_sim_shuffle`, which switch
    the block's threads (fibers); workgroup attributions become views of
    the block's shared memory (16-byte aligned, one after the other),
    private ones stack allocations. Every `memref.load`, `memref.store` and
    atomic update is preceded by a check of each index against its
    dimension, and every `memref.subview` with a dynamic offset, size or
    stride by a check against the buffer it views, that calls
    `pcc_sim_out_of_bounds` (naming the op, the memref type and the source
    location) instead of touching memory. Other `gpu`
    ops are an error naming the op and the kernel. The `gpu.module` is
    replaced by an empty `gpu.binary` of the same name, which its launches
    keep naming until `pcc-lower-simulated-launches`.

    ```mlir
    gpu.module @k { gpu.func @k(%a: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<8xf32> ... } }
    // becomes
    gpu.binary @k [#gpu.object<#nvvm.target, "">]
    func.func @pcc.sim.k.k(%a: memref<8xf32>, %thread: !llvm.ptr)
        attributes {pcc.sim.kernel = "k", pcc.sim.module = "k",
                    pcc.sim.shared_bytes = 0 : i64} {
      %p = llvm.getelementptr %thread[0] : (!llvm.ptr) -> !llvm.ptr, i8
      %t = arith.index_castui (llvm.load %p : i32) : i32 to index
      %ok = arith.cmpi ult, %t, (memref.dim %a, 0)
      cf.cond_br %ok, ^load, ^fail  // ^fail: llvm.call @pcc_sim_out_of_bounds
      ...
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect"];
}

def PCCLowerSimulatedLaunches : Pass<"pcc-lower-simulated-launches",
                                     "mlir::ModuleOp"> {
  let summary = "Launch the host-compiled kernels through the mgpu* ABI";
  let description = [{
    The last pass of `--backend=cuda-sim`, on the LLVM dialect, in place of
    `gpu-module-to-binary`. Each `gpu.binary` left by
    `pcc-gpu-kernels-to-host` becomes a `pcc_sim_image` global (the magic
    number, and for each kernel its name, an entry point `entry(params,
    thread)` that loads each argument from its pointer in `params`, the size
    of each parameter and the shared memory per block), loaded by a global
    constructor with `mgpuModuleLoad` and unloaded by a destructor. Each
    synchronous `gpu.launch_func` becomes what the translation of a launch
    emits for a real GPU: `mgpuModuleGetFunction`, the arguments stored in a
    struct with a pointer to each field, `mgpuStreamCreate`,
    `mgpuLaunchKernel`, `mgpuStreamSynchronize` and `mgpuStreamDestroy`. The
    runtime's cuda platform then runs unchanged, and hands the image to the
    simulated driver's `cuModuleLoadDataEx`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def PCCCheckKernelAccesses : Pass<"pcc-check-kernel-accesses",
                                  "mlir::gpu::GPUModuleOp"> {
  let summary = "Check every index of every load and store in GPU kernels";
  let description = [{
    For the cuda backend, after outlining and the lowering of
    `gpu.all_reduce`, before NVVM: each index of every `memref.load`,
    `memref.store` and atomic update in a kernel is checked against its
    axis before the access, and each `memref.subview` whose offset, size
    or stride is dynamic against the buffer it views (its offset and its
    last element, `memref.subview (slice of a memref<4xf32>): index 4 is
    out of bounds for axis 0 with size 4`; the accesses through it are
    checked against the slice's sizes only). A thread that finds one out of bounds prints
    `pcc runtime error: GPU kernel 'K', block (1, 0, 0), thread (5, 0, 0):
    prog.mlir:9:10: memref.load (load from a memref<8xf32>): index 9 is out
    of bounds for axis 0 with size 8` (`gpu.printf`) and traps, so that the
    launch fails and the runtime ends the run at the next synchronization,
    naming the kernel, instead of reading or writing outside a buffer. (The
    simulated GPU makes the same checks in pcc-gpu-kernels-to-host.)
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // PCC_CODEGEN_CUDA_PASSES_TD
