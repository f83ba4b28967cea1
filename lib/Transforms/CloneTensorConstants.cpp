//===- CloneTensorConstants.cpp - a tensor constant per use ---------------===//
//
// Keeps bufferization's analysis linear in the program: each user of a
// tensor constant but the first gets a copy of the constant of its own, and
// each op that computes into a tensor filled with a constant gets a fill of
// its own. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

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
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](Operation *op) {
      if (op->hasOneUse() || op->use_empty())
        return;
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        if (isa<TensorType>(constant.getType()))
          constants.push_back(constant);
      } else if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        if (fill.hasPureTensorSemantics() &&
            matchPattern(fill.value(), m_Constant()) &&
            fill.output().getDefiningOp<tensor::EmptyOp>())
          fills.push_back(fill);
      }
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
    // An op that computes into a shared filled tensor would get a copy of
    // it (read and written) where a fill of its own only writes; a matmul
    // then drops the fill altogether (pcc-matmul-to-runtime).
    for (linalg::FillOp fill : fills) {
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : fill->getUses()) {
        auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (user && user.isDpsInit(&use))
          inits.push_back(&use);
      }
      // One init may keep the original, unless readers share it too.
      size_t keep =
          inits.size() == size_t(llvm::range_size(fill->getUses())) ? 1 : 0;
      for (OpOperand *use : ArrayRef(inits).drop_back(keep)) {
        OpBuilder builder(use->getOwner());
        Operation *empty = builder.clone(*fill.output().getDefiningOp());
        IRMapping map;
        map.map(fill.output(), empty->getResult(0));
        use->set(builder.clone(*fill, map)->getResult(0));
      }
    }
  }
};
} // namespace
