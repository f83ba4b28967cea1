//===- ExpandPmean.cpp - spmd.pmean as spmd.psum and a division ----------===//
//
// Rewrites every spmd.pmean into a psum followed by a division by the group
// size, so that backends implement one reduction kind fewer.
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

namespace pcc {
#define GEN_PASS_DEF_PCCEXPANDPMEAN
#include "pcc/Dialect/SPMD/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

namespace {
struct PCCExpandPmeanPass
    : public pcc::impl::PCCExpandPmeanBase<PCCExpandPmeanPass> {
  void runOnOperation() override {
    getOperation()->walk([](PmeanOp pmean) {
      OpBuilder builder(pmean);
      Location loc = pmean.getLoc();
      Type type = pmean.getType();
      auto elementType = cast<FloatType>(getElementTypeOrSelf(type));
      auto sum = PsumOp::create(builder, loc, type, pmean.getInput(),
                                pmean.getAxisNames());
      TypedAttr count = builder.getFloatAttr(
          elementType, static_cast<double>(getGroupSize(pmean)));
      if (auto shaped = dyn_cast<ShapedType>(type))
        count = DenseElementsAttr::get(shaped, count);
      auto divisor = arith::ConstantOp::create(builder, loc, count);
      auto mean = arith::DivFOp::create(builder, loc, sum, divisor);
      pmean.replaceAllUsesWith(mean.getResult());
      pmean.erase();
    });
  }
};
} // namespace
