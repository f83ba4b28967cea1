//===- LowerNestedLinalgOps.cpp - linalg ops in bodies as loops -----------===//
//
// After bufferization, each linalg op inside another's body becomes loops,
// before CSE could take its linalg.index for the enclosing op's. See the
// pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERNESTEDLINALGOPS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCLowerNestedLinalgOpsPass
    : public pcc::impl::PCCLowerNestedLinalgOpsBase<
          PCCLowerNestedLinalgOpsPass> {
  void runOnOperation() override {
    // Innermost first (post-order): an op's loops hold the ops in its body.
    // (Bufferization leaves every op on buffers, which always have loops.)
    SmallVector<linalg::LinalgOp> nested;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<linalg::LinalgOp>() &&
          op.hasPureBufferSemantics())
        nested.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : nested) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToLoops(rewriter, op)))
        return signalPassFailure();
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
