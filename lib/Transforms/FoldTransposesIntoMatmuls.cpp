//===- FoldTransposesIntoMatmuls.cpp - matmuls read transposes in place ---===//
//
// A linalg.matmul operand that is a linalg.transpose of a matrix reads the
// matrix itself through a transposed indexing map. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SetVector.h"

namespace pcc {
#define GEN_PASS_DEF_PCCFOLDTRANSPOSESINTOMATMULS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCFoldTransposesIntoMatmulsPass
    : public pcc::impl::PCCFoldTransposesIntoMatmulsBase<
          PCCFoldTransposesIntoMatmulsPass> {
  void runOnOperation() override {
    // A transpose that several operands read is listed once.
    llvm::SetVector<Operation *> folded;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      bool changed = false;
      for (OpOperand *input : op.getDpsInputOperands()) {
        auto transpose =
            input->get().getDefiningOp<linalg::TransposeOp>();
        AffineMap &map = maps[input->getOperandNumber()];
        if (!transpose ||
            transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
            map.getNumResults() != 2)
          continue;
        // The operand's element (i, j) is the matrix's (j, i).
        map = AffineMap::get(map.getNumDims(), 0,
                             {map.getResult(1), map.getResult(0)},
                             op.getContext());
        input->set(transpose.getInput());
        folded.insert(transpose);
        changed = true;
      }
      if (changed)
        op.setIndexingMapsAttr(
            Builder(op.getContext()).getAffineMapArrayAttr(maps));
    });
    // A transpose that only matmuls read is gone (bufferized, it would
    // still be copied).
    for (Operation *transpose : folded)
      if (transpose->use_empty())
        transpose->erase();
  }
};
} // namespace
