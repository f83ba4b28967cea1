//===- GPULowerAllReduce.cpp - gpu.all_reduce as shuffles and shared memory ===//
//
// Lowers the block reductions of pcc-linalg-to-gpu in outlined kernels with
// upstream's patterns (warp shuffles, a shared-memory buffer, barriers),
// then splits 64-bit shuffles into 32-bit ones, which is what NVVM has.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace pcc {
#define GEN_PASS_DEF_PCCGPULOWERALLREDUCE
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCGPULowerAllReducePass
    : public pcc::impl::PCCGPULowerAllReduceBase<PCCGPULowerAllReducePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuAllReducePatterns(patterns);
    populateGpuShufflePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
