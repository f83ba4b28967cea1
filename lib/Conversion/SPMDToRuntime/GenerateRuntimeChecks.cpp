//===- GenerateRuntimeChecks.cpp - indices and sizes checked at run time --===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include <limits>

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
  /// Checks of `op`, emitted before `at`.
  CheckBuilder(Operation *at, Operation *op, SymbolTable &symbols,
               llvm::StringMap<memref::GlobalOp> &messages)
      : builder(at), loc(op->getLoc()), symbols(symbols), messages(messages),
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
      if ((isa<tensor::ExtractOp, tensor::InsertOp, tensor::EmptyOp,
               tensor::GenerateOp, tensor::SplatOp, tensor::ReshapeOp,
               tensor::ExpandShapeOp, tensor::PadOp, tensor::ExtractSliceOp,
               tensor::InsertSliceOp, tensor::ParallelInsertSliceOp,
               tensor::ConcatOp, linalg::LinalgOp, scf::ForOp, scf::ForallOp,
               scf::ParallelOp>(op) ||
           isElementwiseOnDynamicTensors(op)) &&
          (kernelBodies || !op->getParentOfType<linalg::LinalgOp>()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      // A parallel_insert_slice's checks go before the terminator that
      // holds it, which may hold nothing else.
      Operation *at = isa<tensor::ParallelInsertSliceOp>(op)
                          ? op->getParentOp()
                          : op;
      CheckBuilder checks(at, op, symbols, messages);
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
      else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
        checkSlice(checks, slice, slice.getSource(), nullptr, {});
      else if (auto slice = dyn_cast<tensor::InsertSliceOp>(op))
        checkSlice(checks, slice, slice.getDest(), slice.getSource(),
                   slice.getDroppedDims());
      else if (auto slice = dyn_cast<tensor::ParallelInsertSliceOp>(op))
        checkSlice(checks, slice, slice.getDest(), slice.getSource(),
                   slice.getDroppedDims());
      else if (auto concat = dyn_cast<tensor::ConcatOp>(op))
        checkConcat(checks, concat);
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        checkLinalgOperands(checks, linalgOp);
      else if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
        checkSteps(checks, loop);
      else if (isElementwiseOnDynamicTensors(op))
        checkElementwise(checks, op);
    }
  }

  /// An elementwise op (arith, math) on tensors with sizes known only at
  /// run time: its operands may disagree.
  static bool isElementwiseOnDynamicTensors(Operation *op) {
    if (!op->hasTrait<OpTrait::Elementwise>())
      return false;
    return llvm::any_of(op->getOperandTypes(), [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && !tensor.hasStaticShape();
    });
  }

  /// Every tensor operand of an elementwise op has the first one's sizes.
  void checkElementwise(CheckBuilder &checks, Operation *op) {
    SmallVector<Value> tensors;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        tensors.push_back(operand);
    auto type = cast<RankedTensorType>(tensors.front().getType());
    for (int64_t axis = 0; axis < type.getRank(); ++axis) {
      Value first = checks.dim(tensors.front(), axis);
      for (Value other : ArrayRef(tensors).drop_front()) {
        if (!type.isDynamicDim(axis) &&
            !cast<RankedTensorType>(other.getType()).isDynamicDim(axis))
          continue;
        Value size = checks.dim(other, axis);
        checks.require(arith::CmpIOp::create(checks.builder, checks.loc,
                                             arith::CmpIPredicate::eq, first,
                                             size),
                       "operands of sizes {0} and {1} on axis " +
                           std::to_string(axis) + " do not match",
                       {first, size});
      }
    }
  }

  /// Each axis of a slice whose offset, size or stride is given at run
  /// time lies within `whole` (an empty slice may start at its end), and
  /// an inserted tensor (`part`; its axes are the slice's but `dropped`)
  /// has the slice's sizes.
  void checkSlice(CheckBuilder &checks, OffsetSizeAndStrideOpInterface slice,
                  Value whole, Value part, const llvm::SmallBitVector &dropped) {
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    auto wholeType = cast<RankedTensorType>(whole.getType());
    auto cmp = [&](arith::CmpIPredicate predicate, Value a, Value b) {
      return arith::CmpIOp::create(builder, loc, predicate, a, b);
    };
    auto select = [&](Value condition, Value a, Value b) {
      return arith::SelectOp::create(builder, loc, condition, a, b);
    };
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                              sizes = slice.getMixedSizes(),
                              strides = slice.getMixedStrides();
    int64_t partAxis = 0;
    for (int64_t axis = 0; axis < wholeType.getRank(); ++axis) {
      std::string name = std::to_string(axis);
      bool known = !wholeType.isDynamicDim(axis) &&
                   !isa<Value>(offsets[axis]) && !isa<Value>(sizes[axis]) &&
                   !isa<Value>(strides[axis]);
      Value size = getValueOrCreateConstantIndexOp(builder, loc, sizes[axis]);
      if (part && !dropped.test(axis)) {
        auto partType = cast<RankedTensorType>(part.getType());
        if (partType.isDynamicDim(partAxis) || isa<Value>(sizes[axis])) {
          Value partSize = checks.dim(part, partAxis);
          checks.require(cmp(arith::CmpIPredicate::eq, partSize, size),
                         "the inserted tensor's axis " +
                             std::to_string(partAxis) +
                             " has size {0} where the slice has {1}",
                         {partSize, size});
        }
        ++partAxis;
      }
      if (known)
        continue;
      Value offset =
          getValueOrCreateConstantIndexOp(builder, loc, offsets[axis]);
      Value stride =
          getValueOrCreateConstantIndexOp(builder, loc, strides[axis]);
      Value extent = checks.dim(whole, axis);
      Value zero = checks.constant(0), one = checks.constant(1);
      if (isa<Value>(sizes[axis]))
        checks.require(cmp(arith::CmpIPredicate::sge, size, zero),
                       "slice size {0} of axis " + name + " is negative",
                       {size});
      // An empty slice may start anywhere up to the end.
      Value empty = cmp(arith::CmpIPredicate::eq, size, zero);
      checks.require(select(empty,
                            cmp(arith::CmpIPredicate::ule, offset, extent),
                            cmp(arith::CmpIPredicate::ult, offset, extent)),
                     "slice offset {0} is out of bounds for axis " + name +
                         " with size {1}",
                     {offset, extent});
      // The last element, offset + (size - 1) * stride, within the axis,
      // without overflow: size - 1 <= (extent - 1 - offset) / stride for a
      // positive stride, size - 1 <= offset / -stride for a negative one
      // (a stride of 0 stays at the offset). Most strides are a constant 1.
      std::optional<int64_t> knownStride = getConstantIntValue(strides[axis]);
      if (knownStride == 0)
        continue;
      Value ahead = arith::SubIOp::create(
          builder, loc, arith::SubIOp::create(builder, loc, extent, one),
          offset);
      Value room;
      if (knownStride == 1) {
        room = ahead;
      } else if (knownStride && *knownStride > 0) {
        room = arith::DivUIOp::create(builder, loc, ahead, stride);
      } else if (knownStride && *knownStride < 0 &&
                 *knownStride > std::numeric_limits<int64_t>::min()) {
        room = arith::DivUIOp::create(
            builder, loc, offset, checks.constant(-*knownStride));
      } else {
        Value positive = cmp(arith::CmpIPredicate::sgt, stride, zero);
        Value negative = cmp(arith::CmpIPredicate::slt, stride, zero);
        Value behind = arith::DivUIOp::create(
            builder, loc, offset,
            select(negative, arith::SubIOp::create(builder, loc, zero, stride),
                   one));
        room = select(
            positive,
            arith::DivUIOp::create(builder, loc, ahead,
                                   select(positive, stride, one)),
            select(negative, behind,
                   checks.constant(std::numeric_limits<int64_t>::max())));
      }
      Value last = arith::SubIOp::create(builder, loc, size, one);
      Value fits = arith::OrIOp::create(
          builder, loc, cmp(arith::CmpIPredicate::sle, size, one),
          cmp(arith::CmpIPredicate::ule, last, room));
      std::string stepText =
          isa<Value>(strides[axis])
              ? " with its stride"
              : (*getConstantIntValue(strides[axis]) == 1
                     ? ""
                     : " with stride " +
                           std::to_string(*getConstantIntValue(strides[axis])));
      checks.require(fits,
                     "slice of {0} elements" + stepText +
                         " from offset {1} runs past the end of axis " + name +
                         (wholeType.isDynamicDim(axis)
                              ? ""
                              : " with size " +
                                    std::to_string(wholeType.getDimSize(axis))),
                     {size, offset});
    }
  }

  /// The inputs of a concatenation have the result's sizes, and along the
  /// axis they are joined on, sizes that add up to the result's.
  void checkConcat(CheckBuilder &checks, tensor::ConcatOp concat) {
    RankedTensorType type = concat.getResultType();
    bool dynamic = !type.hasStaticShape();
    for (Value input : concat.getInputs())
      dynamic |= !cast<RankedTensorType>(input.getType()).hasStaticShape();
    if (!dynamic)
      return;
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    Value first = concat.getInputs().front();
    int64_t joined = int64_t(concat.getDim());
    for (int64_t axis = 0; axis < type.getRank(); ++axis) {
      Value expected = type.isDynamicDim(axis)
                           ? checks.dim(first, axis)
                           : checks.constant(type.getDimSize(axis));
      if (axis == joined) {
        Value total = checks.constant(0);
        for (Value input : concat.getInputs())
          total = arith::AddIOp::create(builder, loc, total,
                                        checks.dim(input, axis));
        if (type.isDynamicDim(axis))
          continue;
        checks.require(arith::CmpIOp::create(builder, loc,
                                             arith::CmpIPredicate::eq, total,
                                             expected),
                       "inputs of {0} elements in all along axis " +
                           std::to_string(axis) +
                           " do not make the result's {1}",
                       {total, expected});
        continue;
      }
      for (auto [index, input] : llvm::enumerate(concat.getInputs())) {
        Value size = checks.dim(input, axis);
        checks.require(arith::CmpIOp::create(builder, loc,
                                             arith::CmpIPredicate::eq, size,
                                             expected),
                       "input #" + std::to_string(index) + " has size {0} on "
                           "axis " + std::to_string(axis) + " where the "
                           "result has {1}",
                       {size, expected});
      }
    }
  }

  /// The sizes of a linalg op's operands agree with its loops (as the
  /// verifier checks static sizes): each axis that a loop indexes has the
  /// loop's size, and other indexing stays within its axis.
  void checkLinalgOperands(CheckBuilder &checks, linalg::LinalgOp linalgOp) {
    if (llvm::all_of(linalgOp->getOperandTypes(), [](Type type) {
          auto shaped = dyn_cast<ShapedType>(type);
          return !shaped || shaped.hasStaticShape();
        }))
      return;
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    SmallVector<Value> loops, lasts;
    Value anyEmpty = arith::ConstantIntOp::create(builder, loc, 0, 1);
    for (Range range : linalgOp.createLoopRanges(builder, loc)) {
      Value size = getValueOrCreateConstantIndexOp(builder, loc, range.size);
      loops.push_back(size);
      lasts.push_back(
          arith::SubIOp::create(builder, loc, size, checks.constant(1)));
      anyEmpty = arith::OrIOp::create(
          builder, loc, anyEmpty,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle, size,
                                checks.constant(0)));
    }
    SmallVector<OpFoldResult> zeros(loops.size(), builder.getIndexAttr(0)),
        lastFolds(lasts.begin(), lasts.end());
    for (OpOperand &operand : linalgOp->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      for (auto [axis, expr] : llvm::enumerate(map.getResults())) {
        Value size = checks.dim(operand.get(), int64_t(axis));
        std::string which = "operand #" +
                            std::to_string(operand.getOperandNumber()) +
                            " has size {0} on axis " + std::to_string(axis);
        if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
          Value expected = loops[loop.getPosition()];
          checks.require(arith::CmpIOp::create(builder, loc,
                                               arith::CmpIPredicate::eq, size,
                                               expected),
                         which + " where the op's other operands give {1}",
                         {size, expected});
          continue;
        }
        // Indexing such as a convolution's (d0 + d3): at the loops' first
        // and last steps, unless a loop runs no step at all.
        AffineMap one = AffineMap::get(map.getNumDims(), 0, expr);
        Value low = getValueOrCreateConstantIndexOp(
            builder, loc,
            affine::makeComposedFoldedAffineApply(builder, loc, one, zeros));
        Value high = getValueOrCreateConstantIndexOp(
            builder, loc,
            affine::makeComposedFoldedAffineApply(builder, loc, one,
                                                  lastFolds));
        Value least = arith::MinSIOp::create(builder, loc, low, high);
        Value most = arith::MaxSIOp::create(builder, loc, low, high);
        Value inside = arith::AndIOp::create(
            builder, loc,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                  least, checks.constant(0)),
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                  most, size));
        checks.require(
            arith::OrIOp::create(builder, loc, anyEmpty, inside),
            which + ", too small for the index {1} that the op reaches",
            {size, most});
      }
    }
  }

  /// Loop steps given at run time are positive: a step of 0, or a
  /// negative one, would loop forever.
  void checkSteps(CheckBuilder &checks, LoopLikeOpInterface loop) {
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!steps)
      return;
    for (OpFoldResult step : *steps) {
      auto value = dyn_cast<Value>(step);
      if (auto known = getConstantIntValue(step); !value || (known && *known > 0))
        continue;
      checks.require(arith::CmpIOp::create(checks.builder, checks.loc,
                                           arith::CmpIPredicate::sgt, value,
                                           checks.constant(0)),
                     "loop step {0} is not positive", {value});
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
