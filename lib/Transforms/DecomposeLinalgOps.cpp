//===- DecomposeLinalgOps.cpp - linalg ops that bufferize, from those not -===//
//
// One-Shot Bufferize has no model of a few linalg ops: the layout ops
// linalg.pack and linalg.unpack, linalg.softmax and the Winograd transforms.
// Upstream decomposes each into ops that it has; this pass applies those
// decompositions. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace pcc {
#define GEN_PASS_DEF_PCCDECOMPOSELINALGOPS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Replaces `op` by upstream's decomposition of it; nullopt for an op
/// that bufferizes as it is.
static std::optional<LogicalResult> decompose(IRRewriter &rewriter,
                                              Operation *op) {
  using Result = std::optional<LogicalResult>;
  rewriter.setInsertionPoint(op);
  return TypeSwitch<Operation *, Result>(op)
      .Case([&](linalg::PackOp pack) -> Result {
        return LogicalResult(linalg::lowerPack(rewriter, pack));
      })
      .Case([&](linalg::UnPackOp unpack) -> Result {
        return LogicalResult(linalg::lowerUnPack(rewriter, unpack));
      })
      .Case([&](linalg::WinogradFilterTransformOp transform) -> Result {
        return LogicalResult(
            linalg::decomposeWinogradFilterTransformOp(rewriter, transform));
      })
      .Case([&](linalg::WinogradInputTransformOp transform) -> Result {
        return LogicalResult(
            linalg::decomposeWinogradInputTransformOp(rewriter, transform));
      })
      .Case([&](linalg::WinogradOutputTransformOp transform) -> Result {
        return LogicalResult(
            linalg::decomposeWinogradOutputTransformOp(rewriter, transform));
      })
      .Case([&](linalg::AggregatedOpInterface aggregate) -> Result {
        FailureOr<SmallVector<Value>> results =
            aggregate.decomposeOperation(rewriter);
        if (failed(results))
          return failure();
        rewriter.replaceOp(op, *results);
        return success();
      })
      .Default([](Operation *) -> Result { return std::nullopt; });
}

namespace {
struct PCCDecomposeLinalgOpsPass
    : public pcc::impl::PCCDecomposeLinalgOpsBase<PCCDecomposeLinalgOpsPass> {
  void runOnOperation() override {
    // Structured ops bufferize; of the others, `decompose` says which.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_present<linalg::LinalgDialect>(op->getDialect()) &&
          !isa<linalg::LinalgOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      // pcc-verify-closed admits only the forms that decompose.
      std::optional<LogicalResult> decomposed = decompose(rewriter, op);
      if (decomposed && failed(*decomposed)) {
        op->emitError() << "upstream's decomposition of '" << op->getName()
                        << "' failed";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
