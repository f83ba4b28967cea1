//===- ExpandPmean.cpp - spmd.pmean as spmd.psum and a division ----------===//
//
// Rewrites every spmd.pmean into a psum followed by a division by the group
// size, so that backends implement one reduction kind fewer.
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

namespace pcc {
#define GEN_PASS_DEF_PCCEXPANDPMEAN
#include "pcc/Dialect/SPMD/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

/// The number of devices that `pmean`'s sum spans, as a value of `pmean`'s
/// type: a constant, or, where its groups differ in size, the size of this
/// device's group, looked up by its position along the axis.
static Value getDivisor(OpBuilder &builder, PmeanOp pmean) {
  Type resultType = pmean.getType();
  auto type = cast<FloatType>(getElementTypeOrSelf(resultType));
  Location loc = pmean.getLoc();
  ArrayAttr groups = pmean.getGroupsAttr();
  SmallVector<double> sizeAt;
  if (groups) {
    int64_t positions = 0;
    for (Attribute group : groups)
      positions += cast<DenseI64ArrayAttr>(group).size();
    sizeAt.resize(positions);
    for (Attribute group : groups)
      for (int64_t position : cast<DenseI64ArrayAttr>(group).asArrayRef())
        sizeAt[position] = double(cast<DenseI64ArrayAttr>(group).size());
  }
  if (!groups || llvm::all_equal(sizeAt)) {
    TypedAttr count =
        builder.getFloatAttr(type, static_cast<double>(getGroupSize(pmean)));
    if (auto shaped = dyn_cast<ShapedType>(resultType))
      count = DenseElementsAttr::get(shaped, count);
    return arith::ConstantOp::create(builder, loc, count);
  }
  SmallVector<Attribute> elements;
  for (double size : sizeAt)
    elements.push_back(builder.getFloatAttr(type, size));
  auto tableType = RankedTensorType::get({int64_t(sizeAt.size())}, Type(type));
  Value table = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(tableType, elements));
  Value position =
      AxisIndexOp::create(builder, loc, pmean.getAxisNames()).getResult();
  Value size = tensor::ExtractOp::create(builder, loc, table, position);
  if (auto shaped = dyn_cast<RankedTensorType>(resultType))
    return tensor::SplatOp::create(builder, loc, shaped, size);
  return size;
}

namespace {
struct PCCExpandPmeanPass
    : public pcc::impl::PCCExpandPmeanBase<PCCExpandPmeanPass> {
  void runOnOperation() override {
    getOperation()->walk([](PmeanOp pmean) {
      OpBuilder builder(pmean);
      Location loc = pmean.getLoc();
      auto sum = PsumOp::create(builder, loc, pmean.getType(), pmean.getInput(),
                                pmean.getAxisNames(), pmean.getGroupsAttr());
      // Errors, traces and profiles name the op the program wrote.
      sum->setAttr(kWrittenAsAttrName,
                   builder.getStringAttr(pmean->getName().getStringRef()));
      Value divisor = getDivisor(builder, pmean);
      auto mean = arith::DivFOp::create(builder, loc, sum, divisor);
      pmean.replaceAllUsesWith(mean.getResult());
      pmean.erase();
    });
  }
};
} // namespace
