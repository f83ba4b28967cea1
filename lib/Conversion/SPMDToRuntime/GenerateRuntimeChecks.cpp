//===- GenerateRuntimeChecks.cpp - indices and sizes checked at run time --===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCGENERATERUNTIMECHECKS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The largest tensor a program may make at run time, as VerifyClosed
/// bounds static ones: 2^48 bytes.
static constexpr int64_t kMaxBytes = int64_t(1) << 48;

namespace {
/// Emits the checks of one op, before it.
class CheckBuilder {
public:
  CheckBuilder(Operation *op, SymbolTable &symbols,
               llvm::StringMap<memref::GlobalOp> &messages)
      : builder(op), loc(op->getLoc()), symbols(symbols), messages(messages),
        prefix(pcc::formatLocation(loc) + "'" +
               op->getName().getStringRef().str() + "': ") {}

  /// Fails with `what` (its {0} and {1} the values) unless `ok`.
  void require(Value ok, const std::string &what, ValueRange values) {
    Value failed = arith::XOrIOp::create(
        builder, loc, ok, arith::ConstantIntOp::create(builder, loc, 1, 1));
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange(), failed,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    pcc::callCheckFailed(builder, symbols, messages, loc, prefix + what,
                         values);
  }

  /// Dimension `d` of `tensor`, as an index (a constant if static).
  Value dim(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return constant(type.getDimSize(d));
    return tensor::DimOp::create(builder, loc, tensor, d);
  }

  /// Index `i` within [0, size): one unsigned comparison.
  void requireIndex(Value i, Value size, int64_t axis) {
    if (auto index = getConstantIntValue(i))
      if (auto bound = getConstantIntValue(size);
          bound && *index >= 0 && *index < *bound)
        return;
    require(
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, i, size),
        "index {0} is out of bounds for axis " + std::to_string(axis) +
            " with size {1}",
        {i, size});
  }

  /// Sizes of a shape made at run time: none negative, and the whole no
  /// larger than kMaxBytes; returns the number of elements. Static sizes
  /// are bounded already (pcc-verify-closed), so they come first.
  Value requireShape(TensorType type, ValueRange dynamicSizes) {
    int64_t elementBytes =
        std::max<int64_t>(1, (type.getElementTypeBitWidth() + 7) / 8);
    int64_t staticCount = 1;
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      if (!type.isDynamicDim(axis))
        staticCount *= type.getDimSize(axis);
    Value count = constant(staticCount);
    Value zero = constant(0);
    unsigned next = 0;
    for (int64_t axis = 0; axis < type.getRank(); ++axis) {
      if (!type.isDynamicDim(axis))
        continue;
      Value size = dynamicSizes[next++];
      require(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                    size, zero),
              "axis " + std::to_string(axis) + " has negative size {0}",
              {size});
      // count * size * elementBytes <= kMaxBytes, without overflow:
      // size <= kMaxBytes / elementBytes / count (count >= 1 until a size
      // is 0, after which nothing can overflow).
      Value room = arith::DivUIOp::create(
          builder, loc, constant(kMaxBytes / elementBytes),
          arith::MaxUIOp::create(builder, loc, count, constant(1)));
      require(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                    size, room),
              "axis " + std::to_string(axis) +
                  " of size {0} makes the tensor larger than 2^48 bytes",
              {size});
      count = arith::MulIOp::create(builder, loc, count, size);
    }
    return count;
  }

  /// The number of elements of `tensor`.
  Value countElements(Value tensor) {
    auto type = cast<RankedTensorType>(tensor.getType());
    Value count = constant(1);
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      count = arith::MulIOp::create(builder, loc, count, dim(tensor, axis));
    return count;
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  OpBuilder builder;
  Location loc;

private:
  SymbolTable &symbols;
  llvm::StringMap<memref::GlobalOp> &messages;
  std::string prefix;
};

struct PCCGenerateRuntimeChecksPass
    : public pcc::impl::PCCGenerateRuntimeChecksBase<
          PCCGenerateRuntimeChecksPass> {
  using PCCGenerateRuntimeChecksBase::PCCGenerateRuntimeChecksBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<memref::GlobalOp> messages;
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<tensor::ExtractOp, tensor::InsertOp, tensor::EmptyOp,
              tensor::GenerateOp, tensor::SplatOp, tensor::ReshapeOp,
              tensor::ExpandShapeOp, tensor::PadOp>(op) &&
          (kernelBodies || !op->getParentOfType<linalg::LinalgOp>()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      CheckBuilder checks(op, symbols, messages);
      auto checkIndices = [&](Value tensor, ValueRange indices) {
        for (auto [axis, index] : llvm::enumerate(indices))
          checks.requireIndex(index, checks.dim(tensor, axis), axis);
      };
      if (auto extract = dyn_cast<tensor::ExtractOp>(op))
        checkIndices(extract.getTensor(), extract.getIndices());
      else if (auto insert = dyn_cast<tensor::InsertOp>(op))
        checkIndices(insert.getDest(), insert.getIndices());
      else if (auto empty = dyn_cast<tensor::EmptyOp>(op);
               empty && !empty.getDynamicSizes().empty())
        checks.requireShape(empty.getType(), empty.getDynamicSizes());
      else if (auto generate = dyn_cast<tensor::GenerateOp>(op);
               generate && !generate.getDynamicExtents().empty())
        checks.requireShape(generate.getType(), generate.getDynamicExtents());
      else if (auto splat = dyn_cast<tensor::SplatOp>(op);
               splat && !splat.getDynamicSizes().empty())
        checks.requireShape(splat.getType(), splat.getDynamicSizes());
      else if (auto reshape = dyn_cast<tensor::ReshapeOp>(op))
        checkReshape(checks, reshape);
      else if (auto pad = dyn_cast<tensor::PadOp>(op))
        checkPad(checks, pad);
      else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
        checkExpandShape(checks, expand);
    }
  }

  /// Sizes given at run time to split an axis are not negative and
  /// multiply to the axis's size.
  void checkExpandShape(CheckBuilder &checks, tensor::ExpandShapeOp expand) {
    if (expand.getOutputShape().empty())
      return;
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
    SmallVector<Value> dynamicSizes;
    for (OpFoldResult size : shape)
      if (auto value = dyn_cast<Value>(size))
        dynamicSizes.push_back(value);
    checks.requireShape(expand.getResultType(), dynamicSizes);
    for (auto [axis, group] :
         llvm::enumerate(expand.getReassociationIndices())) {
      Value product = checks.constant(1);
      bool dynamic = false;
      for (int64_t outer : group) {
        Value size =
            getValueOrCreateConstantIndexOp(builder, loc, shape[outer]);
        dynamic |= isa<Value>(shape[outer]);
        product = arith::MulIOp::create(builder, loc, product, size);
      }
      if (!dynamic)
        continue;
      Value size = checks.dim(expand.getSrc(), axis);
      checks.require(arith::CmpIOp::create(
                         builder, loc, arith::CmpIPredicate::eq, product, size),
                     "axis " + std::to_string(axis) +
                         " of size {0} cannot "
                         "be split into sizes that multiply to {1}",
                     {size, product});
    }
  }

  /// Padding given at run time is not negative (which would make a
  /// smaller tensor, read from outside the source), and the padded tensor
  /// is no larger than 2^48 bytes.
  void checkPad(CheckBuilder &checks, tensor::PadOp pad) {
    if (pad.getLow().empty() && pad.getHigh().empty())
      return;
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    Value zero = checks.constant(0);
    auto source = cast<RankedTensorType>(pad.getSourceType());
    SmallVector<OpFoldResult> low = pad.getMixedLowPad(),
                              high = pad.getMixedHighPad();
    SmallVector<Value> sizes;
    for (int64_t axis = 0; axis < source.getRank(); ++axis) {
      Value size = checks.dim(pad.getSource(), axis);
      for (auto [side, amounts] : {std::pair{"low", &low}, {"high", &high}}) {
        auto amount = dyn_cast<Value>((*amounts)[axis]);
        if (!amount) {
          size = arith::AddIOp::create(
              builder, loc, size,
              checks.constant(*getConstantIntValue((*amounts)[axis])));
          continue;
        }
        checks.require(arith::CmpIOp::create(builder, loc,
                                             arith::CmpIPredicate::sge, amount,
                                             zero),
                       std::string(side) + " padding {0} of axis " +
                           std::to_string(axis) + " is negative",
                       {amount});
        size = arith::AddIOp::create(builder, loc, size, amount);
      }
      if (pad.getResultType().isDynamicDim(axis))
        sizes.push_back(size);
    }
    checks.requireShape(pad.getResultType(), sizes);
  }

  /// The new shape's sizes are not negative and hold as many elements as
  /// the source (a static result shape is checked by the verifier).
  void checkReshape(CheckBuilder &checks, tensor::ReshapeOp reshape) {
    auto type = cast<RankedTensorType>(reshape.getResult().getType());
    auto source = dyn_cast<RankedTensorType>(reshape.getSource().getType());
    if (!source || (type.hasStaticShape() && source.hasStaticShape()))
      return;
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    SmallVector<Value> sizes;
    for (int64_t axis = 0; axis < type.getRank(); ++axis) {
      if (!type.isDynamicDim(axis))
        continue;
      Value size = tensor::ExtractOp::create(builder, loc, reshape.getShape(),
                                             checks.constant(axis));
      if (!size.getType().isIndex())
        size = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                          size);
      sizes.push_back(size);
    }
    Value count = checks.requireShape(type, sizes);
    Value sourceCount = checks.countElements(reshape.getSource());
    checks.require(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         count, sourceCount),
                   "cannot reshape {0} elements into a shape of {1} elements",
                   {sourceCount, count});
  }
};
} // namespace
