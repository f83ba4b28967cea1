//===- CpuPipeline.cpp - spmd on tensors to LLVM for the host backend ----===//
//
// The backends' pipelines, stage by stage (docs/design.md shows the IR
// after each): give the entry a C ABI, expand pmean, outline pmap bodies into
// device functions on a flattened grid, turn collectives into runtime calls,
// bufferize, insert deallocations, and lower everything to the LLVM dialect,
// with loops (cpu) or GPU kernels in a fatbin (cuda).
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"
#include "pcc/Dialect/SPMD/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The stages both backends share: from spmd on tensors to buffers, with
/// device functions for the pmap bodies and runtime calls for collectives.
static void buildBufferPipeline(OpPassManager &pm, StringRef entry,
                                int64_t memoryLimit, bool cuda) {
  // spmd on tensors. Programs run in pcc's process: first make sure they
  // can only run their own code, and that their values fit in memory.
  pcc::PCCVerifyClosedOptions inputOptions;
  inputOptions.memoryLimit = memoryLimit;
  pm.addPass(pcc::createPCCVerifyClosed(inputOptions));
  pcc::PCCEntryABIOptions entryOptions;
  entryOptions.entry = entry.str();
  pm.addPass(pcc::createPCCEntryABI(entryOptions));
  pm.addPass(pcc::createSPMDExpandPmean());
  pm.addPass(pcc::createSPMDOutlinePmaps());
  // The cuda backend's collectives need contiguous managed buffers: the
  // runtime's packing of strided ones is host memory. Collectives become
  // runtime calls on tensors, which bufferize with the rest of the body.
  pcc::SPMDLowerCollectivesOptions collectives;
  collectives.stridedOperands = !cuda;
  pm.addPass(pcc::createSPMDLowerCollectives(collectives));
  // Diagnostics that name the program's functions are behind; calls that
  // generated code makes by name are ahead.
  pm.addPass(pcc::createPCCRenameUserSymbols());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Integer division by zero and INT_MIN / -1 give defined results, the
  // same on every backend, instead of a signal or whatever a GPU gives.
  pm.addPass(pcc::createPCCDefineIntegerDivision());
  // Loops compute their next value in place of the current one where they
  // can, instead of into a buffer per step.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCReuseLoopBuffers());

  // Tensors to buffers. Function boundaries use identity layouts, which is
  // what the device functions and the entry's C ABI expect.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops may carry fresh buffers (an scf.for whose iter_args are results of
  // collectives or other new tensors); deallocation handles them.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Bodies compute straight into the pmap's result slices.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // A buffer that a loop's steps use one after another is allocated once,
  // before the loop, not once per step.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  // Functions fill buffers their callers pass rather than returning new
  // ones, down to the entry, whose results land in the driver's buffers.
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(pcc::createPCCEntryResultsInPlace());
  // Kernels read constants from buffers, not from the host's globals.
  if (cuda)
    pm.addPass(pcc::createPCCCopyConstantGlobals());
  bufferization::buildBufferDeallocationPipeline(pm);
  // Deallocation leaves bufferization.clone where a function returns a
  // buffer it does not own (a constant, an argument).
  pm.addPass(createConvertBufferizationToMemRefPass());
}

/// The last stages of both backends: the host code to the LLVM dialect.
/// The cuda backend's devices are launched by pcc_cuda_launch.
static void buildHostToLLVMPipeline(OpPassManager &pm, bool cuda) {
  // Math ops on f32/f64 become libm calls (erf, tan, atan2, ... have no LLVM
  // intrinsic); pcc-verify-closed allows exactly those functions.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Structured control flow first: memref.alloca_scope (around runtime
  // calls) lowers into its parent's blocks, which scf regions cannot have.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(pcc::createSPMDLowerRuntimeCalls());
  // Buffers come from the runtime's allocator, which enforces the memory
  // limit (cuda: managed memory, converted before gpu-to-llvm).
  if (!cuda) {
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    memrefOptions.useGenericFunctions = true;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  }
  pm.addPass(createConvertToLLVMPass());
  pcc::SPMDLaunchToLLVMOptions launchOptions;
  launchOptions.launchFunction = cuda ? "pcc_cuda_launch" : "pcc_launch";
  pm.addPass(pcc::createSPMDLaunchToLLVM(launchOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pcc::PCCVerifyClosedOptions closedOptions;
  closedOptions.lowered = true;
  pm.addPass(pcc::createPCCVerifyClosed(closedOptions));
}

void pcc::buildCpuPipeline(OpPassManager &pm,
                           const CpuPipelineOptions &options) {
  buildBufferPipeline(pm, options.entry, options.memoryLimit, /*cuda=*/false);
  pm.addPass(pcc::createPCCMatmulToRuntime());
  pm.addNestedPass<func::FuncOp>(pcc::createPCCLowerStridedCopies());
  pm.addNestedPass<func::FuncOp>(pcc::createPCCReassociateReductions());
  pm.addPass(createConvertLinalgToLoopsPass());
  buildHostToLLVMPipeline(pm, /*cuda=*/false);
}

void pcc::buildCudaPipeline(OpPassManager &pm,
                            const CudaPipelineOptions &options) {
  buildBufferPipeline(pm, options.entry, options.memoryLimit, /*cuda=*/true);

  // Reductions and matmuls as kernels whose threads cooperate; the other
  // loop nests as parallel loops, collapsed to one dimension and tiled by
  // 256, mapped to blocks of 256 threads (what remains sequential stays
  // inside each thread).
  OpPassManager &functions = pm.nest<func::FuncOp>();
  pcc::PCCLinalgToGPUOptions linalgToGPU;
  linalgToGPU.deviceCopies = !options.hostCopies;
  functions.addPass(pcc::createPCCLinalgToGPU(linalgToGPU));
  functions.addPass(createConvertLinalgToParallelLoopsPass());
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
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(pcc::createSPMDLowerRuntimeCalls());
  pm.addPass(pcc::createPCCScopeKernelLaunches());

  // Kernels to a fatbin through NVVM; host code to the LLVM dialect.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(pcc::createPCCGPULowerAllReduce());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // Host buffers come from the runtime's allocator (managed memory, which
  // host code, kernels and collectives on every GPU can all reach), before
  // gpu-to-llvm would turn memref.alloc into malloc.
  pm.addPass(memref::createExpandStridedMetadataPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createGpuToLLVMConversionPass());
  buildHostToLLVMPipeline(pm, /*cuda=*/true);
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void pcc::registerDialects(DialectRegistry &registry) {
  registry.insert<pcc::spmd::SPMDDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, tensor::TensorDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  // How gpu.binary embeds its kernels in the host module (#gpu.select_object).
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  pcc::spmd::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  // What buffer-results-to-out-params needs to hoist memref.alloc.
  memref::registerAllocationOpInterfaceExternalModels(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
}

void pcc::registerPipelines() {
  // The upstream passes the pipelines use, so that pcc-opt can run any
  // stage on its own.
  registerConvertElementwiseToLinalgPass();
  registerConvertLinalgToParallelLoopsPass();
  registerConvertLinalgToLoopsPass();
  bufferization::registerOneShotBufferizePass();
  bufferization::registerBufferResultsToOutParamsPass();
  bufferization::registerEmptyTensorEliminationPass();
  bufferization::registerBufferizationPipelines();
  memref::registerExpandStridedMetadataPass();
  registerConvertBufferizationToMemRefPass();
  registerConvertMathToLibmPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerConvertToLLVMPass();
  registerReconcileUnrealizedCastsPass();

  PassPipelineRegistration<CpuPipelineOptions>(
      "pcc-cpu-pipeline",
      "Lower an spmd program to the LLVM dialect for the host backend",
      buildCpuPipeline);
  PassPipelineRegistration<CudaPipelineOptions>(
      "pcc-cuda-pipeline",
      "Lower an spmd program to GPU kernels (a fatbin) and LLVM host code",
      buildCudaPipeline);
}
