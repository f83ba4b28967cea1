//===- ReassociateReductions.cpp - let LLVM vectorize float reductions ----===//
//
// A float sum or product along a loop is a chain of dependent additions,
// one every few cycles, unless the compiler may reorder it into several
// partial results (vector lanes, interleaved accumulators): LLVM does that
// only for operations marked `reassoc`. This pass marks the float additions
// and multiplications that fold values into the accumulator of a linalg op
// that reduces, which is the licence XLA and the GPU backend's block
// reductions take too: a reduction's rounding depends on its order, which
// pcc does not promise. The rest of the body keeps its order.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace pcc {
#define GEN_PASS_DEF_PCCREASSOCIATEREDUCTIONS
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCReassociateReductionsPass
    : public pcc::impl::PCCReassociateReductionsBase<
          PCCReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation()->walk([](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() == 0)
        return;
      // Only the operations that fold values into an accumulator: those
      // reached from an init's block argument through additions and
      // multiplications. The body's other arithmetic (an elementwise op
      // fused into the reduction, a program's x * c before it sums) keeps
      // its order: LLVM would otherwise fold (x * c1) * c2 into
      // x * (c1 * c2), and 1e10 * 1e30 * 1e-30, inf in order, came out
      // 1e10.
      SmallVector<Value> accumulated;
      for (OpOperand &init : op.getDpsInitsMutable())
        if (op.payloadUsesValueFromOperand(&init))
          accumulated.push_back(op.getMatchingBlockArgument(&init));
      llvm::SmallPtrSet<Operation *, 8> marked;
      while (!accumulated.empty()) {
        for (Operation *user : accumulated.pop_back_val().getUsers()) {
          if (!isa<arith::AddFOp, arith::MulFOp>(user) ||
              !marked.insert(user).second)
            continue;
          auto fastMath = cast<arith::ArithFastMathInterface>(user);
          arith::FastMathFlags flags =
              fastMath.getFastMathFlagsAttr().getValue() |
              arith::FastMathFlags::reassoc;
          user->setAttr(
              fastMath.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(user->getContext(), flags));
          accumulated.push_back(user->getResult(0));
        }
      }
    });
  }
};
} // namespace
