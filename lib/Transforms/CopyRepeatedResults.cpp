//===- CopyRepeatedResults.cpp - a buffer per returned position -----------===//
//
// A buffer returned at several positions is copied for each repeat, so that
// buffer-results-to-out-params gives each position its own out-parameter.
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCOPYREPEATEDRESULTS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCopyRepeatedResultsPass
    : public pcc::impl::PCCCopyRepeatedResultsBase<PCCCopyRepeatedResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallDenseSet<Value> returned;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value buffer = operand.get();
        auto type = dyn_cast<MemRefType>(buffer.getType());
        if (!type || returned.insert(buffer).second)
          continue;
        SmallVector<Value> sizes;
        for (int64_t dim : llvm::seq<int64_t>(type.getRank()))
          if (type.isDynamicDim(dim))
            sizes.push_back(
                memref::DimOp::create(builder, ret.getLoc(), buffer, dim));
        auto identity =
            MemRefType::get(type.getShape(), type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace());
        Value copy =
            memref::AllocOp::create(builder, ret.getLoc(), identity, sizes);
        memref::CopyOp::create(builder, ret.getLoc(), buffer, copy);
        if (copy.getType() != type)
          copy = memref::CastOp::create(builder, ret.getLoc(), type, copy);
        operand.set(copy);
      }
    });
  }
};
} // namespace
