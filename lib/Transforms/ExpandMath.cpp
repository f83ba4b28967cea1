//===- ExpandMath.cpp - math ops that nothing downstream lowers -----------===//
//
// math.rsqrt and math.fpowi through upstream's expansions, math.copysign as
// bit operations, math.expm1 from exp and log; see the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace pcc {
#define GEN_PASS_DEF_PCCEXPANDMATH
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
/// copysign(x, y): the bits of x but its sign, or'ed with the sign of y.
struct ExpandCopySign : public OpRewritePattern<math::CopySignOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::CopySignOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    IntegerType bits = rewriter.getIntegerType(type.getWidth());
    APInt signBit = APInt::getSignMask(type.getWidth());
    auto constant = [&](const APInt &value) {
      return arith::ConstantOp::create(rewriter, loc, bits,
                                       rewriter.getIntegerAttr(bits, value));
    };
    Value magnitude = arith::AndIOp::create(
        rewriter, loc, arith::BitcastOp::create(rewriter, loc, bits, op.getLhs()),
        constant(~signBit));
    Value sign = arith::AndIOp::create(
        rewriter, loc, arith::BitcastOp::create(rewriter, loc, bits, op.getRhs()),
        constant(signBit));
    Value result = arith::OrIOp::create(rewriter, loc, magnitude, sign);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, result);
    return success();
  }
};

/// The two float classifications that LLVM's intrinsic lowering lacks, as
/// ordered comparisons of the magnitude (false for NaN): isinf(x) is
/// |x| == inf, isnormal(x) is smallest normal <= |x| < inf.
template <typename Op>
struct ExpandClassification : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getOperand().getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](const APFloat &value) {
      return arith::ConstantOp::create(rewriter, loc, type,
                                       rewriter.getFloatAttr(type, value));
    };
    const llvm::fltSemantics &semantics = type.getFloatSemantics();
    Value magnitude = math::AbsFOp::create(rewriter, loc, op.getOperand());
    Value infinity = constant(APFloat::getInf(semantics));
    Value result;
    if constexpr (std::is_same_v<Op, math::IsInfOp>) {
      result = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ,
                                     magnitude, infinity);
    } else {
      Value smallest = constant(APFloat::getSmallestNormalized(semantics));
      result = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGE,
                                magnitude, smallest),
          arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                                magnitude, infinity));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// expm1(x) by Kahan's formula, from exp and log alone: with u = exp(x),
/// x where u rounds to 1, -1 where u - 1 does, u where it overflows, and
/// (u - 1) * (x / log(u)) otherwise, whose rounding errors in u cancel.
/// (Upstream's lowering computes exp(x) - 1, which loses every digit for
/// |x| below the precision: expm1(1e-10) came out 0 in f32.)
struct ExpandExpM1 : public OpRewritePattern<math::ExpM1Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpM1Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!floatType)
      return failure();
    Location loc = op.getLoc();
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    auto constant = [&](double value) {
      APFloat converted(value);
      bool lost;
      converted.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
      return createScalarOrSplatConstant(rewriter, loc, type, converted);
    };
    auto equal = [&](Value a, Value b) {
      return arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, a,
                                   b);
    };
    Value x = op.getOperand();
    Value u = math::ExpOp::create(rewriter, loc, x);
    Value one = constant(1.0), minusOne = constant(-1.0);
    Value uMinusOne = arith::SubFOp::create(rewriter, loc, u, one);
    // (x / log(u) first: (u - 1) * x overflows for x just below where u
    // does.)
    Value log = math::LogOp::create(rewriter, loc, u);
    Value ratio = arith::DivFOp::create(rewriter, loc, x, log);
    Value general = arith::MulFOp::create(rewriter, loc, uMinusOne, ratio);
    Value infinity = createScalarOrSplatConstant(rewriter, loc, type,
                                                 APFloat::getInf(semantics));
    Value result =
        arith::SelectOp::create(rewriter, loc, equal(u, infinity), u, general);
    result = arith::SelectOp::create(rewriter, loc, equal(uMinusOne, minusOne),
                                     minusOne, result);
    result = arith::SelectOp::create(rewriter, loc, equal(u, one), x, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PCCExpandMathPass
    : public pcc::impl::PCCExpandMathBase<PCCExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns, {"rsqrt", "fpowi"});
    patterns
        .add<ExpandCopySign, ExpandExpM1, ExpandClassification<math::IsInfOp>,
             ExpandClassification<math::IsNormalOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
