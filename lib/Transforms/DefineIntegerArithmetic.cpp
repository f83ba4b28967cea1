//===- DefineIntegerArithmetic.cpp - x / 0, x << 64 as XLA has them -------===//
//
// Guards every integer division whose divisor might be 0 (or -1, for signed
// ones), every shift whose amount might be the width or more, and every
// float-to-integer cast, so that no device ever executes an undefined one:
// see the pass description in Passes.td for the results.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace pcc {
#define GEN_PASS_DEF_PCCDEFINEINTEGERARITHMETIC
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The bit width of `type`'s elements (index: 64).
static unsigned widthOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIndex() ? IndexType::kInternalStorageBitWidth
                           : element.getIntOrFloatBitWidth();
}

/// A constant of `type` (an integer or index, or a tensor of them, splat),
/// `value` having its elements' width.
static Value constant(OpBuilder &builder, Location loc, Type type,
                      const APInt &value) {
  TypedAttr attr = IntegerAttr::get(getElementTypeOrSelf(type), value);
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = SplatElementsAttr::get(shaped, value);
  return arith::ConstantOp::create(builder, loc, type, attr);
}

/// Guards the division `op` (x / y or x % y): returns the defined result.
static Value guard(OpBuilder &builder, Operation *op, bool isSigned,
                   bool isRemainder) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0), y = op->getOperand(1);
  Type type = y.getType();
  unsigned width = widthOf(type);
  auto eq = [&](Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, a, b)
        .getResult();
  };
  Value zero = constant(builder, loc, type, APInt(width, 0));
  Value one = constant(builder, loc, type, APInt(width, 1));
  Value allOnes = constant(builder, loc, type, APInt::getAllOnes(width));
  Value isZero = eq(y, zero);
  Value bad = isZero;
  if (isSigned) {
    Value min = constant(builder, loc, type, APInt::getSignedMinValue(width));
    Value xIsMin = eq(x, min);
    Value yIsMinusOne = eq(y, allOnes);
    Value overflows = arith::AndIOp::create(builder, loc, xIsMin, yIsMinusOne);
    bad = arith::OrIOp::create(builder, loc, isZero, overflows);
  }
  // Dividing by 1 gives x (INT_MIN for the overflow, as defined) and a
  // remainder of 0 (as defined for the overflow).
  Value divisor = arith::SelectOp::create(builder, loc, bad, one, y);
  Operation *safe = builder.clone(*op);
  safe->setOperand(1, divisor);
  return arith::SelectOp::create(builder, loc, isZero,
                                 isRemainder ? x : allOnes, safe->getResult(0));
}

/// Whether dividing by `y` needs no guard: a constant that is neither 0 nor
/// (for a signed division) -1.
static bool isSafeDivisor(Value y, bool isSigned) {
  APInt value;
  if (!matchPattern(y, m_ConstantInt(&value)))
    return false;
  return !value.isZero() && !(isSigned && value.isAllOnes());
}

/// Guards the shift `op` (x << y, x >> y): an amount of the width or more
/// (unsigned: a negative one too) shifts every bit out.
static Value guardShift(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  Value y = op->getOperand(1);
  Type type = y.getType();
  unsigned width = widthOf(type);
  Value tooFar =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge, y,
                            constant(builder, loc, type, APInt(width, width)));
  // Shifting right by width - 1 fills every bit with the sign; the others
  // shift by 0 and give 0 instead.
  bool arithmetic = isa<arith::ShRSIOp>(op);
  Value zero =
      arithmetic ? Value() : constant(builder, loc, type, APInt(width, 0));
  Value amount = arith::SelectOp::create(
      builder, loc, tooFar,
      arithmetic ? constant(builder, loc, type, APInt(width, width - 1)) : zero,
      y);
  Operation *safe = builder.clone(*op);
  safe->setOperand(1, amount);
  if (arithmetic)
    return safe->getResult(0);
  return arith::SelectOp::create(builder, loc, tooFar, zero,
                                 safe->getResult(0));
}

/// Whether shifting by `y` needs no guard: a constant below the width.
static bool isSafeShift(Value y) {
  APInt value;
  return matchPattern(y, m_ConstantInt(&value)) &&
         value.ult(widthOf(y.getType()));
}

/// A constant of `type` (a float, or a tensor of them, splat) holding
/// `value`, rounded to it (past its range: an infinity).
static Value floatConstant(OpBuilder &builder, Location loc, Type type,
                           const APInt &value, bool isSigned) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  APFloat converted(element.getFloatSemantics());
  converted.convertFromAPInt(value, isSigned, APFloat::rmNearestTiesToEven);
  TypedAttr attr = FloatAttr::get(element, converted);
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = SplatElementsAttr::get(shaped, converted);
  return arith::ConstantOp::create(builder, loc, type, attr);
}

/// Guards the cast `op` (fptosi or fptoui): a value past the integer
/// type's range gives its nearest end, NaN gives 0, and the cast itself
/// only ever converts a value in range.
static Value guardCast(OpBuilder &builder, Operation *op, bool isSigned) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  Type type = x.getType(), result = op->getResult(0).getType();
  unsigned width = widthOf(result);
  auto cmp = [&](arith::CmpFPredicate predicate, Value a, Value b) {
    return arith::CmpFOp::create(builder, loc, predicate, a, b).getResult();
  };
  // The first power of two past the range (2^(w-1), or 2^w unsigned), and
  // its end below (-2^(w-1), which the range holds, or 0).
  APInt past = APInt::getOneBitSet(width + 1, isSigned ? width - 1 : width);
  Value zero = floatConstant(builder, loc, type, APInt(1, 0), false);
  Value above = cmp(arith::CmpFPredicate::OGE, x,
                    floatConstant(builder, loc, type, past, false));
  Value below = isSigned ? cmp(arith::CmpFPredicate::OLE, x,
                               floatConstant(builder, loc, type, -past, true))
                         : cmp(arith::CmpFPredicate::OLT, x, zero);
  Value outside = arith::OrIOp::create(builder, loc, above, below);
  Value isNaN = cmp(arith::CmpFPredicate::UNO, x, x);
  Value bad = arith::OrIOp::create(builder, loc, isNaN, outside);
  Value inRange = arith::SelectOp::create(builder, loc, bad, zero, x);
  Operation *safe = builder.clone(*op);
  safe->setOperand(0, inRange);
  Value max = constant(builder, loc, result,
                       isSigned ? APInt::getSignedMaxValue(width)
                                : APInt::getMaxValue(width));
  Value min =
      constant(builder, loc, result,
               isSigned ? APInt::getSignedMinValue(width) : APInt(width, 0));
  Value clamped =
      arith::SelectOp::create(builder, loc, above, max, safe->getResult(0));
  return arith::SelectOp::create(builder, loc, below, min, clamped);
}

namespace {
struct PCCDefineIntegerArithmeticPass
    : public pcc::impl::PCCDefineIntegerArithmeticBase<
          PCCDefineIntegerArithmeticPass> {
  void runOnOperation() override {
    SmallVector<Operation *> divisions;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
              arith::FloorDivSIOp, arith::DivUIOp, arith::RemUIOp,
              arith::CeilDivUIOp>(op))
        divisions.push_back(op);
    });
    SmallVector<Operation *> shifts;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op) &&
          !isSafeShift(op->getOperand(1)))
        shifts.push_back(op);
    });
    SmallVector<Operation *> casts;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
        casts.push_back(op);
    });
    for (Operation *op : casts) {
      OpBuilder builder(op);
      Value result = guardCast(builder, op, isa<arith::FPToSIOp>(op));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
    for (Operation *op : shifts) {
      OpBuilder builder(op);
      Value result = guardShift(builder, op);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
    for (Operation *op : divisions) {
      bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                          arith::FloorDivSIOp>(op);
      if (isSafeDivisor(op->getOperand(1), isSigned))
        continue;
      OpBuilder builder(op);
      Value result =
          guard(builder, op, isSigned, isa<arith::RemSIOp, arith::RemUIOp>(op));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};
} // namespace
