//===- CollapseParallelLoops.cpp - parallel loop nests to one dimension ---===//
//
// Collapses each outermost multi-dimensional scf.parallel into one
// dimension, so that tiling by the block size and the mapping to GPU threads
// see one flat range of work.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace pcc {
#define GEN_PASS_DEF_PCCCOLLAPSEPARALLELLOOPS
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCollapseParallelLoopsPass
    : public pcc::impl::PCCCollapseParallelLoopsBase<
          PCCCollapseParallelLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (loop.getNumLoops() > 1 &&
          !loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0u);
      collapseParallelLoops(rewriter, loop, {all});
    }
  }
};
} // namespace
