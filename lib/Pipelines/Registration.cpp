//===- Registration.cpp - dialects, interfaces and named pipelines -------===//
//
// What pcc and pcc-opt share: the dialects programs and pipelines use, with
// their interfaces and extensions, and the pipelines by name.
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"
#include "pcc/Dialect/SPMD/Transforms/BufferizableOpInterfaceImpl.h"
#include "pcc/Dialect/SPMD/Transforms/Passes.h"
#include "pcc/Codegen/CPU/Passes.h"
#include "pcc/Codegen/CUDA/Passes.h"
#include "pcc/Conversion/Passes.h"
#include "pcc/Transforms/Passes.h"

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
#include "mlir/Dialect/Tensor/Transforms/RuntimeOpVerification.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"


using namespace mlir;

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
  // The run-time checks of the program's tensor ops (extract, insert,
  // slices, casts; generate-runtime-verification).
  tensor::registerRuntimeVerifiableOpInterfaceExternalModels(registry);
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
  registerSPMDTransformsPasses();
  registerPCCConversionPasses();
  registerPCCTransformsPasses();
  registerPCCCodegenCPUPasses();
  registerPCCCodegenCUDAPasses();
  // The upstream passes the pipelines use, so that pcc-opt can run any
  // stage on its own and --mlir-print-ir-after (of pcc and pcc-opt) can
  // name any of them.
  registerCanonicalizer();
  registerCSE();
  registerConvertElementwiseToLinalgPass();
  registerConvertLinalgToParallelLoopsPass();
  registerConvertLinalgToLoopsPass();
  bufferization::registerOneShotBufferizePass();
  bufferization::registerBufferResultsToOutParamsPass();
  bufferization::registerEmptyTensorEliminationPass();
  bufferization::registerBufferizationPipelines();
  bufferization::registerBufferLoopHoistingPass();
  registerSCFForallToForLoop();
  registerSCFForallToParallelLoop();
  bufferization::registerOwnershipBasedBufferDeallocationPass();
  bufferization::registerBufferDeallocationSimplificationPass();
  bufferization::registerLowerDeallocationsPass();
  memref::registerExpandReallocPass();
  memref::registerExpandStridedMetadataPass();
  registerConvertBufferizationToMemRefPass();
  registerGenerateRuntimeVerification();
  registerConvertMathToFuncs();
  registerConvertMathToLLVMPass();
  registerConvertMathToLibmPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerConvertFuncToLLVMPass();
  registerConvertToLLVMPass();
  registerReconcileUnrealizedCastsPass();
  // The cuda pipeline's own.
  registerSCFParallelLoopTiling();
  registerGpuMapParallelLoopsPass();
  registerConvertParallelLoopToGpuPass();
  registerGpuLaunchSinkIndexComputationsPass();
  registerGpuKernelOutliningPass();
  registerGpuNVVMAttachTarget();
  registerConvertGpuOpsToNVVMOps();
  registerGpuModuleToBinaryPass();
  registerGpuToLLVMConversionPass();

  PassPipelineRegistration<CpuPipelineOptions>(
      "pcc-cpu-pipeline",
      "Lower an spmd program to the LLVM dialect for the host backend",
      buildCpuPipeline);
  PassPipelineRegistration<CudaPipelineOptions>(
      "pcc-cuda-pipeline",
      "Lower an spmd program to GPU kernels (a fatbin) and LLVM host code",
      buildCudaPipeline);
}
