//===- CudaPipeline.cpp - spmd on tensors to GPU kernels and host code ---===//
//
// The shared stages down to buffers, then every loop nest of linalg ops as
// a GPU kernel (reductions and matmuls with cooperating threads, the rest as
// parallel loops tiled by 256 threads), kernels compiled through NVVM into a
// fatbin embedded in the host module, and the host code to the LLVM dialect,
// launching kernels through MLIR's GPU runtime ABI and collectives through
// the runtime (NCCL or pcc's kernels), on CUDA managed memory.
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "Stages.h"

#include "pcc/Codegen/CUDA/Passes.h"
#include "pcc/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void pcc::buildCudaPipeline(OpPassManager &pm,
                            const CudaPipelineOptions &options) {
  detail::buildBufferStages(pm, options.entry, options.memoryLimit,
                            /*cuda=*/true);

  // Reductions and matmuls as kernels whose threads cooperate; the other
  // loop nests as parallel loops, collapsed to one dimension and tiled by
  // 256, mapped to blocks of 256 threads (what remains sequential stays
  // inside each thread).
  OpPassManager &functions = pm.nest<func::FuncOp>();
  // The mapping takes parallel loops without results, and shares only the
  // outermost among threads: the program's loops that reduce, and those
  // inside others, run as sequential loops. (Before the kernels, so that
  // the ops in a reducing loop's body still become kernels; again after
  // the linalg ops left inside bodies have become loops.)
  functions.addPass(pcc::createPCCSequentialLoops());
  functions.addPass(pcc::createPCCLinalgToGPU());
  functions.addPass(createConvertLinalgToParallelLoopsPass());
  functions.addPass(pcc::createPCCSequentialLoops());
  functions.addPass(pcc::createPCCCollapseParallelLoops());
  // Folds the collapsed bounds to constants before tiling.
  functions.addPass(createCanonicalizerPass());
  functions.addPass(createParallelLoopTilingPass({256}));
  // Folds the tile steps to constants: launch sizes must be static.
  functions.addPass(createCanonicalizerPass());
  functions.addPass(createGpuMapParallelLoopsPass());
  functions.addPass(createConvertParallelLoopToGpuPass());
  // Constants and index arithmetic move into the kernels, which then fold
  // them (the canonicalizer hoisted them out of the launches).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(pcc::createPCCNameKernels());
  // Host functions that may recurse check the device thread's stack, as on
  // the cpu backend (kernels, in their gpu.module, are not host code).
  pm.addPass(pcc::createPCCGuardRecursion());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(pcc::createPCCLowerRuntimeCalls());
  pm.addPass(pcc::createPCCScopeKernelLaunches());

  // Kernels to a fatbin through NVVM (or, simulated, to host functions);
  // host code to the LLVM dialect.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(pcc::createPCCGPULowerAllReduce());
  if (options.simulate) {
    pm.addPass(pcc::createPCCGPUKernelsToHost());
  } else {
    kernels.addPass(pcc::createPCCCheckKernelAccesses());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(createReconcileUnrealizedCastsPass());
  }
  // Host code as on the cpu backend (buffers from the runtime's allocator,
  // which gives managed memory that host code, kernels and collectives on
  // every GPU can all reach); the launches last, once functions and
  // branches are in the LLVM dialect. (gpu-to-llvm converts branches but
  // not the functions around them: run earlier, it handed the buffer that
  // an scf.if or scf.for carries to an llvm.br unconverted.)
  detail::buildHostToLLVMStages(pm, /*cuda=*/true);
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.simulate) {
    pm.addPass(pcc::createPCCLowerSimulatedLaunches());
    return;
  }
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}
