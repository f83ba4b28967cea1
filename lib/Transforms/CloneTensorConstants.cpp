//===- CloneTensorConstants.cpp - a tensor constant per use ---------------===//
//
// Keeps bufferization's analysis linear in the program: each user of a
// tensor constant but the first gets a copy of the constant of its own. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCLONETENSORCONSTANTS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCloneTensorConstantsPass
    : public pcc::impl::PCCCloneTensorConstantsBase<
          PCCCloneTensorConstantsPass> {
  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation().walk([&](arith::ConstantOp op) {
      if (isa<TensorType>(op.getType()) && !op->hasOneUse() &&
          !op->use_empty())
        constants.push_back(op);
    });
    for (arith::ConstantOp constant : constants) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : constant->getUses())
        uses.push_back(&use);
      // Uses are listed last first; the first stays with the original.
      for (OpOperand *use : ArrayRef(uses).drop_back()) {
        OpBuilder builder(use->getOwner());
        use->set(builder.clone(*constant)->getResult(0));
      }
    }
  }
};
} // namespace
