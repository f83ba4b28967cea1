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
#include "mlir/Dialect/Math/IR/Math.h"
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

/// `type` with elements of `element` (a scalar: `element` itself).
static Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// `op` (sitofp or uitofp from an integer of 25 to 64 bits to bf16) rounded
/// once: LLVM converts through f32, rounding twice (2^30 + 2^22 + 1 came out
/// 2^30). The integer is rounded to odd at 53 bits (toward zero, the lowest
/// bit set where bits were lost), which f64 holds exactly, and that rounded
/// to bf16.
static Value convertToBFloat(OpBuilder &builder, Operation *op, bool isSigned) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  Type i64 = withElement(x.getType(), builder.getI64Type());
  Type f64 = withElement(x.getType(), builder.getF64Type());
  auto c = [&](int64_t value) {
    return constant(builder, loc, i64, APInt(64, uint64_t(value)));
  };
  Value wide = x;
  if (widthOf(x.getType()) < 64)
    wide = isSigned ? arith::ExtSIOp::create(builder, loc, i64, x).getResult()
                    : arith::ExtUIOp::create(builder, loc, i64, x).getResult();
  Value negative, magnitude = wide;
  if (isSigned) {
    negative = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                     wide, c(0));
    // (INT64_MIN's magnitude, 2^63, as an unsigned number.)
    magnitude = arith::SelectOp::create(
        builder, loc, negative, arith::SubIOp::create(builder, loc, c(0), wide),
        wide);
  }
  Value bits = arith::SubIOp::create(
      builder, loc, c(64),
      math::CountLeadingZerosOp::create(builder, loc, magnitude));
  Value shift = arith::MaxSIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, bits, c(53)), c(0));
  Value kept = arith::ShRUIOp::create(builder, loc, magnitude, shift);
  Value lost =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, magnitude,
                            arith::ShLIOp::create(builder, loc, kept, shift));
  Value odd = arith::OrIOp::create(
      builder, loc, kept, arith::ExtUIOp::create(builder, loc, i64, lost));
  // uitofp is exact below 2^53, and so is scaling by 2^shift.
  Value value = arith::UIToFPOp::create(builder, loc, f64, odd);
  Value scale = arith::BitcastOp::create(
      builder, loc, f64,
      arith::ShLIOp::create(builder, loc,
                            arith::AddIOp::create(builder, loc, shift, c(1023)),
                            c(52)));
  value = arith::MulFOp::create(builder, loc, value, scale);
  if (isSigned)
    value = arith::SelectOp::create(builder, loc, negative,
                                    arith::NegFOp::create(builder, loc, value),
                                    value);
  return arith::TruncFOp::create(builder, loc, op->getResult(0).getType(),
                                 value);
}

/// Whether `op` converts an integer of 25 to 64 bits to bf16, which f32
/// cannot hold exactly on the way.
static bool convertsWideToBFloat(Operation *op) {
  if (!isa<arith::SIToFPOp, arith::UIToFPOp>(op))
    return false;
  unsigned width = widthOf(op->getOperand(0).getType());
  return getElementTypeOrSelf(op->getResult(0).getType()).isBF16() &&
         width > 24 && width <= 64;
}

/// `op` (floordivsi, whose divisor is never 0 nor, for INT_MIN, -1 by
/// now) as the quotient toward zero, less one where the remainder is not 0
/// and its sign differs from the divisor's. (Upstream's expansion adds the
/// constant -1 built from 64 bits: 2^64 - 1 for wider integers.)
static Value expandFloorDivision(OpBuilder &builder, arith::FloorDivSIOp op) {
  Location loc = op.getLoc();
  Value x = op.getLhs(), y = op.getRhs();
  Type type = y.getType();
  unsigned width = widthOf(type);
  Value zero = constant(builder, loc, type, APInt(width, 0));
  Value q = arith::DivSIOp::create(builder, loc, x, y);
  Value r = arith::RemSIOp::create(builder, loc, x, y);
  Value inexact =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, r, zero);
  Value signsDiffer =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                            arith::XOrIOp::create(builder, loc, r, y), zero);
  Value down = arith::AndIOp::create(builder, loc, inexact, signsDiffer);
  Value below = arith::SubIOp::create(
      builder, loc, q, constant(builder, loc, type, APInt(width, 1)));
  return arith::SelectOp::create(builder, loc, down, below, q);
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
    SmallVector<Operation *> toBFloat;
    getOperation()->walk([&](Operation *op) {
      if (convertsWideToBFloat(op))
        toBFloat.push_back(op);
    });
    for (Operation *op : toBFloat) {
      OpBuilder builder(op);
      op->getResult(0).replaceAllUsesWith(
          convertToBFloat(builder, op, isa<arith::SIToFPOp>(op)));
      op->erase();
    }
    SmallVector<arith::FloorDivSIOp> floorDivisions;
    getOperation()->walk(
        [&](arith::FloorDivSIOp op) { floorDivisions.push_back(op); });
    for (arith::FloorDivSIOp op : floorDivisions) {
      OpBuilder builder(op);
      op.replaceAllUsesWith(expandFloorDivision(builder, op));
      op.erase();
    }
  }
};
} // namespace
