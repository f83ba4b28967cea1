//===- ReassociateReductions.cpp - let LLVM vectorize float reductions ----===//
//
// A float sum or product along a loop is a chain of dependent additions,
// one every few cycles, unless the compiler may reorder it into several
// partial results (vector lanes, interleaved accumulators): LLVM does that
// only for operations marked `reassoc`. This pass marks the float additions
// and multiplications in the bodies of linalg ops that reduce, which is the
// licence XLA and the GPU backend's block reductions take too: a reduction's
// rounding depends on its order, which pcc does not promise.
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
      op->walk([](Operation *inner) {
        if (!isa<arith::AddFOp, arith::MulFOp>(inner))
          return;
        auto fastMath = cast<arith::ArithFastMathInterface>(inner);
        arith::FastMathFlags flags =
            fastMath.getFastMathFlagsAttr().getValue() |
            arith::FastMathFlags::reassoc;
        inner->setAttr(fastMath.getFastMathAttrName(),
                       arith::FastMathFlagsAttr::get(inner->getContext(),
                                                     flags));
      });
    });
  }
};
} // namespace
