//===- SequentialLoops.cpp - parallel loops that threads cannot share -----===//
//
// Each scf.parallel with results, and each inside another, becomes a nest of
// scf.for loops (carrying the reduced values): the GPU mapping takes loops
// without results only, and would share an inner loop among the threads of
// a block. Loops and linalg ops whose bodies must run on the host (they
// meet the other devices or launch a pmap) become scf.for loops too. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCSEQUENTIALLOOPS
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The loop nest for `loop`'s dimensions from `dim` on, carrying
/// `accumulators`; returns the reduced values after it.
static SmallVector<Value> buildNest(OpBuilder &builder, scf::ParallelOp loop,
                                    unsigned dim, ValueRange accumulators,
                                    IRMapping &mapping) {
  Location loc = loop.getLoc();
  if (dim == loop.getNumLoops()) {
    // The body, then each reduce region combining the value so far with
    // this iteration's, in order.
    Block &body = *loop.getBody();
    for (Operation &op : body.without_terminator())
      builder.clone(op, mapping);
    auto reduce = cast<scf::ReduceOp>(body.getTerminator());
    SmallVector<Value> next;
    for (auto [region, operand, accumulator] : llvm::zip(
             reduce.getReductions(), reduce.getOperands(), accumulators)) {
      Block &combine = region.front();
      IRMapping inner = mapping;
      inner.map(combine.getArgument(0), accumulator);
      inner.map(combine.getArgument(1), mapping.lookupOrDefault(operand));
      for (Operation &op : combine.without_terminator())
        builder.clone(op, inner);
      auto result = cast<scf::ReduceReturnOp>(combine.getTerminator());
      next.push_back(inner.lookupOrDefault(result.getResult()));
    }
    return next;
  }
  auto forOp = scf::ForOp::create(
      builder, loc, loop.getLowerBound()[dim], loop.getUpperBound()[dim],
      loop.getStep()[dim], accumulators,
      [&](OpBuilder &nested, Location, Value variable, ValueRange carried) {
        mapping.map(loop.getInductionVars()[dim], variable);
        SmallVector<Value> results =
            buildNest(nested, loop, dim + 1, carried, mapping);
        scf::YieldOp::create(nested, loc, results);
      });
  return forOp.getResults();
}

/// Whether `loop` runs inside one GPU thread: inside a kernel, or inside a
/// parallel loop that the mapping shares among threads (one without
/// results; one with them becomes a host loop).
static bool runsWithinAThread(scf::ParallelOp loop) {
  for (Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<gpu::LaunchOp>(parent))
      return true;
    if (auto outer = dyn_cast<scf::ParallelOp>(parent);
        outer && outer.getNumResults() == 0)
      return true;
  }
  return false;
}

namespace {
/// Which regions hold ops that only the host can run: a collective's call
/// or a pmap's launch, also in a function they call.
class HostOnly {
public:
  explicit HostOnly(Operation *function)
      : symbols(function->getParentOfType<ModuleOp>()) {}

  bool holds(Operation *op) {
    return op
        ->walk([&](Operation *nested) {
          if (isa<pcc::spmd::RuntimeCallOp, pcc::spmd::LaunchOp>(nested))
            return WalkResult::interrupt();
          if (auto call = dyn_cast<func::CallOp>(nested))
            if (calls(call.getCallee()))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

private:
  /// Whether the function `name` holds such ops (false while it is being
  /// looked at, so that recursion ends).
  bool calls(StringRef name) {
    auto [at, fresh] = functions.try_emplace(name, false);
    if (!fresh)
      return at->second;
    auto callee = symbols.lookup<func::FuncOp>(name);
    bool result = callee && !callee.isExternal() && holds(callee);
    functions[name] = result;
    return result;
  }

  SymbolTable symbols;
  llvm::StringMap<bool> functions;
};

struct PCCSequentialLoopsPass
    : public pcc::impl::PCCSequentialLoopsBase<PCCSequentialLoopsPass> {
  void runOnOperation() override {
    HostOnly hostOnly(getOperation());
    // Linalg ops whose bodies run on the host: loops on the host, whose
    // bodies' own loops and linalg ops may still become kernels.
    SmallVector<linalg::LinalgOp> hostOps;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && hostOnly.holds(op))
        hostOps.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : hostOps) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToLoops(rewriter, op)))
        return signalPassFailure();
      rewriter.eraseOp(op);
    }
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (loop.getNumResults() > 0 || runsWithinAThread(loop) ||
          hostOnly.holds(loop))
        loops.push_back(loop);
    });
    // Inner loops first (post-order walk): an outer loop clones a body
    // whose inner reductions are loops already.
    for (scf::ParallelOp loop : loops) {
      OpBuilder builder(loop);
      IRMapping mapping;
      SmallVector<Value> results =
          buildNest(builder, loop, 0, loop.getInitVals(), mapping);
      loop.replaceAllUsesWith(results);
      loop.erase();
    }
  }
};
} // namespace
