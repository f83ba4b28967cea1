//===- CpuPipeline.cpp - spmd on tensors to LLVM for the cpu backend -----===//
//
// The shared stages down to buffers, then loops for the host's cores:
// matmuls as calls of the runtime's GEMM, strided copies and reductions in
// forms that vectorize, and the host code to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "Stages.h"

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void pcc::buildCpuPipeline(OpPassManager &pm,
                           const CpuPipelineOptions &options) {
  detail::buildBufferStages(pm, options.entry, options.memoryLimit, /*cuda=*/false);
  // Large functions as many small ones, so that compile time stays linear.
  pm.addPass(pcc::createPCCOutlineSegments());
  pm.addPass(pcc::createPCCMatmulToRuntime());
  pm.addNestedPass<func::FuncOp>(pcc::createPCCLowerStridedCopies());
  pm.addNestedPass<func::FuncOp>(pcc::createPCCReassociateReductions());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  detail::buildHostToLLVMStages(pm, /*cuda=*/false);
}
