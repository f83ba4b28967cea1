//===- CpuPipeline.cpp - spmd on tensors to LLVM for the host backend ----===//
//
// The host backend's pipeline, stage by stage (docs/design.md shows the IR
// after each): give the entry a C ABI, expand pmean, outline pmap bodies into
// device functions on a flattened grid, turn collectives into runtime calls,
// bufferize, insert deallocations, and lower everything to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

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
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void pcc::buildCpuPipeline(OpPassManager &pm,
                           const CpuPipelineOptions &options) {
  // spmd on tensors. Programs run in pcc's process: first make sure they
  // can only run their own code.
  pm.addPass(createPCCVerifyClosed());
  PCCEntryABIOptions entryOptions;
  entryOptions.entry = options.entry;
  pm.addPass(createPCCEntryABI(entryOptions));
  pm.addPass(createSPMDExpandPmean());
  pm.addPass(createSPMDOutlinePmaps());
  pm.addPass(createSPMDLowerCollectives());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertElementwiseToLinalgPass());

  // Tensors to buffers. Function boundaries use identity layouts, which is
  // what the device functions and the entry's C ABI expect.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops may carry fresh buffers (an scf.for whose iter_args are results of
  // collectives or other new tensors); deallocation handles them.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  // Deallocation leaves bufferization.clone where a function returns a
  // buffer it does not own (a constant, an argument).
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Buffers to the LLVM dialect.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createSPMDLaunchToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  PCCVerifyClosedOptions closedOptions;
  closedOptions.lowered = true;
  pm.addPass(createPCCVerifyClosed(closedOptions));
}

void pcc::registerDialects(DialectRegistry &registry) {
  registry.insert<pcc::spmd::SPMDDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
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
  registerConvertLinalgToLoopsPass();
  bufferization::registerOneShotBufferizePass();
  bufferization::registerBufferizationPipelines();
  memref::registerExpandStridedMetadataPass();
  registerConvertBufferizationToMemRefPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerConvertToLLVMPass();
  registerReconcileUnrealizedCastsPass();

  PassPipelineRegistration<CpuPipelineOptions>(
      "pcc-cpu-pipeline",
      "Lower an spmd program to the LLVM dialect for the host backend",
      buildCpuPipeline);
}
