//===- DecomposeLinalgOps.cpp - linalg ops that bufferize, from those not -===//
//
// One-Shot Bufferize has no model of a few linalg ops: the layout ops
// linalg.pack and linalg.unpack, linalg.softmax and the Winograd transforms.
// Upstream decomposes each into ops that it has; this pass applies those
// decompositions. It also gives reductions over nothing their inits, which
// bufferization would not. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

/// Replaces `op`, when its reduction loops run zero times, by its inits.
/// One-Shot Bufferize copies an init into the result's buffer only where
/// the payload reads it, so an op whose payload ignores an init (`yield
/// %in`) would otherwise return uninitialized memory where nothing was
/// reduced. Statically empty, the op is its inits; dynamically sized, an
/// scf.if chooses between them and the op at run time.
static void keepInitsWhereNothingIsReduced(IRRewriter &rewriter,
                                           linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return op.payloadUsesValueFromOperand(&init);
      }))
    return;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> dynamicReductions;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    if (!linalg::isReductionIterator(iterators[dim]))
      continue;
    if (size == 0) {
      rewriter.replaceOp(op, op.getDpsInits());
      return;
    }
    if (ShapedType::isDynamic(size))
      dynamicReductions.push_back(dim);
  }
  if (dynamicReductions.empty())
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value nothingReduced;
  for (unsigned dim : dynamicReductions) {
    Value size =
        getValueOrCreateConstantIndexOp(rewriter, loc, ranges[dim].size);
    Value empty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        size, zero);
    nothingReduced =
        nothingReduced
            ? arith::OrIOp::create(rewriter, loc, nothingReduced, empty)
            : empty;
  }
  auto choice = scf::IfOp::create(
      rewriter, loc, nothingReduced,
      [&](OpBuilder &builder, Location loc) {
        scf::YieldOp::create(builder, loc, op.getDpsInits());
      },
      [&](OpBuilder &builder, Location loc) {
        scf::YieldOp::create(builder, loc, builder.clone(*op)->getResults());
      });
  rewriter.replaceOp(op, choice->getResults());
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
    SmallVector<linalg::LinalgOp> structured;
    getOperation()->walk(
        [&](linalg::LinalgOp op) { structured.push_back(op); });
    for (linalg::LinalgOp op : structured)
      keepInitsWhereNothingIsReduced(rewriter, op);
  }
};
} // namespace
