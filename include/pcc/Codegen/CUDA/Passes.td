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
           "Run buffer copies as GPU kernels (false: for tests on the "
           "runtime's mock driver)", "llvm::cl::Hidden">,
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

#endif // PCC_CODEGEN_CUDA_PASSES_TD
