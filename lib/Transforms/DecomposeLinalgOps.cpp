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

/// Replaces `op` by upstream's decomposition of it.
static LogicalResult decompose(IRRewriter &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](linalg::PackOp pack) {
        return linalg::lowerPack(rewriter, pack);
      })
      .Case([&](linalg::UnPackOp unpack) {
        return linalg::lowerUnPack(rewriter, unpack);
      })
      .Case([&](linalg::WinogradFilterTransformOp transform) {
        return linalg::decomposeWinogradFilterTransformOp(rewriter, transform);
      })
      .Case([&](linalg::WinogradInputTransformOp transform) {
        return linalg::decomposeWinogradInputTransformOp(rewriter, transform);
      })
      .Case([&](linalg::WinogradOutputTransformOp transform) {
        return linalg::decomposeWinogradOutputTransformOp(rewriter, transform);
      })
      .Case([&](linalg::AggregatedOpInterface aggregate) -> LogicalResult {
        FailureOr<SmallVector<Value>> results =
            aggregate.decomposeOperation(rewriter);
        if (failed(results))
          return failure();
        rewriter.replaceOp(op, *results);
        return success();
      })
      .Default([](Operation *) { return success(); });
}

namespace {
struct PCCDecomposeLinalgOpsPass
    : public pcc::impl::PCCDecomposeLinalgOpsBase<PCCDecomposeLinalgOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp,
              linalg::WinogradFilterTransformOp,
              linalg::WinogradInputTransformOp,
              linalg::WinogradOutputTransformOp, linalg::AggregatedOpInterface>(
              op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      // pcc-verify-closed admits only the forms that decompose.
      if (failed(decompose(rewriter, op))) {
        op->emitError() << "upstream's decomposition of '" << op->getName()
                        << "' failed";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
