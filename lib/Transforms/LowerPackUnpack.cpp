//===- LowerPackUnpack.cpp - linalg.pack and linalg.unpack as tensor ops --===//
//
// One-Shot Bufferize has no model of linalg.pack and linalg.unpack; upstream
// lowers them into ops it has (linalg::lowerPack, linalg::lowerUnPack). See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERPACKUNPACK
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCLowerPackUnpackPass
    : public pcc::impl::PCCLowerPackUnpackBase<PCCLowerPackUnpackPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      bool lowered =
          isa<linalg::PackOp>(op)
              ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
              : succeeded(
                    linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
      // pcc-verify-closed admits only the static forms, which lower.
      if (!lowered) {
        op->emitError() << "upstream's lowering of '" << op->getName()
                        << "' failed";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
