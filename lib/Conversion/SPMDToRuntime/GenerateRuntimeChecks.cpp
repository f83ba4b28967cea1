//===- GenerateRuntimeChecks.cpp - indices and sizes checked at run time --===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include <functional>
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
               scf::ParallelOp, bufferization::AllocTensorOp,
               bufferization::MaterializeInDestinationOp>(op) ||
           isElementwiseOnDynamicTensors(op)) &&
          (kernelBodies || !op->getParentOfType<linalg::LinalgOp>()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      // A parallel_insert_slice's checks go before the terminator that
      // holds it, which may hold nothing else.
      Operation *at =
          isa<tensor::ParallelInsertSliceOp>(op) ? op->getParentOp() : op;
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
      else if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
               alloc && !alloc.getDynamicSizes().empty())
        checks.requireShape(alloc.getType(), alloc.getDynamicSizes());
      else if (auto materialize =
                   dyn_cast<bufferization::MaterializeInDestinationOp>(op))
        checkSameShape(checks, materialize.getSource(), materialize.getDest(),
                       "the source has size {0} on axis {A} where the "
                       "destination has {1}");
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
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (failed(checkLinalgOperands(checks, linalgOp)))
          return signalPassFailure();
      } else if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
        checkLoop(checks, loop);
      else if (isElementwiseOnDynamicTensors(op))
        checkElementwise(checks, op);
    }
  }

  /// `a` and `b`, ranked tensors of one rank, have the same sizes where
  /// either's is known only at run time; `what` says otherwise ({A}: the
  /// axis).
  void checkSameShape(CheckBuilder &checks, Value a, Value b, StringRef what) {
    auto aType = dyn_cast<RankedTensorType>(a.getType());
    auto bType = dyn_cast<RankedTensorType>(b.getType());
    if (!aType || !bType)
      return;
    for (int64_t axis = 0; axis < aType.getRank(); ++axis) {
      if (!aType.isDynamicDim(axis) && !bType.isDynamicDim(axis))
        continue;
      Value aSize = checks.dim(a, axis), bSize = checks.dim(b, axis);
      std::string text = what.str();
      text.replace(text.find("{A}"), 3, std::to_string(axis));
      checks.require(arith::CmpIOp::create(checks.builder, checks.loc,
                                           arith::CmpIPredicate::eq, aSize,
                                           bSize),
                     text, {aSize, bSize});
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
                  Value whole, Value part,
                  const llvm::SmallBitVector &dropped) {
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
      // (Ops are made one statement at a time, so that their order does
      // not depend on the compiler's order of evaluating arguments.)
      Value empty = cmp(arith::CmpIPredicate::eq, size, zero);
      Value upToEnd = cmp(arith::CmpIPredicate::ule, offset, extent);
      Value beforeEnd = cmp(arith::CmpIPredicate::ult, offset, extent);
      checks.require(select(empty, upToEnd, beforeEnd),
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
        room = arith::DivUIOp::create(builder, loc, offset,
                                      checks.constant(-*knownStride));
      } else {
        Value positive = cmp(arith::CmpIPredicate::sgt, stride, zero);
        Value negative = cmp(arith::CmpIPredicate::slt, stride, zero);
        Value behind = arith::DivUIOp::create(
            builder, loc, offset,
            select(negative, arith::SubIOp::create(builder, loc, zero, stride),
                   one));
        Value aheadSteps = arith::DivUIOp::create(builder, loc, ahead,
                                              select(positive, stride, one));
        Value notAhead = select(
            negative, behind,
            checks.constant(std::numeric_limits<int64_t>::max()));
        room = select(positive, aheadSteps, notAhead);
      }
      Value last = arith::SubIOp::create(builder, loc, size, one);
      Value atMostOne = cmp(arith::CmpIPredicate::sle, size, one);
      Value within = cmp(arith::CmpIPredicate::ule, last, room);
      Value fits = arith::OrIOp::create(builder, loc, atMostOne, within);
      std::string stepText =
          isa<Value>(strides[axis])
              ? " with stride {2}"
              : (knownStride == 1
                     ? ""
                     : " with stride " + std::to_string(*knownStride));
      // Which end it runs past: a stride known only at run time may go
      // either way.
      auto requireWithin = [&](bool forward) {
        Value ok = fits;
        if (!knownStride)
          ok = arith::OrIOp::create(builder, loc, ok,
                                    cmp(forward ? arith::CmpIPredicate::slt
                                                : arith::CmpIPredicate::sgt,
                                        stride, zero));
        checks.require(ok,
                       "slice of {0} elements" + stepText +
                           " from offset {1} runs past the " +
                           (forward ? "end" : "start") + " of axis " + name +
                           " with size {3}",
                       {size, offset, stride, extent});
      };
      if (!knownStride || *knownStride > 0)
        requireWithin(/*forward=*/true);
      if (!knownStride || *knownStride < 0)
        requireWithin(/*forward=*/false);
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
        // A dynamic result size is the sum itself.
        if (type.isDynamicDim(axis))
          continue;
        Value total = checks.constant(0);
        for (Value input : concat.getInputs())
          total = arith::AddIOp::create(builder, loc, total,
                                        checks.dim(input, axis));
        checks.require(
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, total,
                                  expected),
            "inputs of {0} elements in all along axis " + std::to_string(axis) +
                " do not make the result's {1}",
            {total, expected});
        continue;
      }
      for (auto [index, input] : llvm::enumerate(concat.getInputs())) {
        Value size = checks.dim(input, axis);
        checks.require(arith::CmpIOp::create(builder, loc,
                                             arith::CmpIPredicate::eq, size,
                                             expected),
                       "input #" + std::to_string(index) +
                           " has size {0} on "
                           "axis " +
                           std::to_string(axis) +
                           " where the "
                           "result has {1}",
                       {size, expected});
      }
    }
  }

  /// The sizes of a linalg op's operands agree with its loops (as the
  /// verifier checks static sizes): each axis that a loop indexes has the
  /// loop's size, and other indexing (a convolution's d0 + d3, d0 - d1,
  /// d0 mod 3) stays within its axis over all the loops' steps.
  LogicalResult checkLinalgOperands(CheckBuilder &checks,
                                    linalg::LinalgOp linalgOp) {
    if (llvm::all_of(linalgOp->getOperandTypes(), [](Type type) {
          auto shaped = dyn_cast<ShapedType>(type);
          return !shaped || shaped.hasStaticShape();
        }))
      return success();
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    SmallVector<Value> loops;
    Value anyEmpty = arith::ConstantIntOp::create(builder, loc, 0, 1);
    for (Range range : linalgOp.createLoopRanges(builder, loc)) {
      Value size = getValueOrCreateConstantIndexOp(builder, loc, range.size);
      loops.push_back(size);
      anyEmpty = arith::OrIOp::create(
          builder, loc, anyEmpty,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle, size,
                                checks.constant(0)));
    }
    for (OpOperand &operand : linalgOp->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      std::string which =
          "operand #" + std::to_string(operand.getOperandNumber());
      for (auto [axis, expr] : llvm::enumerate(map.getResults())) {
        Value size = checks.dim(operand.get(), int64_t(axis));
        std::string where = " on axis " + std::to_string(axis);
        if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
          Value expected = loops[loop.getPosition()];
          checks.require(arith::CmpIOp::create(builder, loc,
                                               arith::CmpIPredicate::eq, size,
                                               expected),
                         which + " has size {0}" + where +
                             " where the op's other operands give {1}",
                         {size, expected});
          continue;
        }
        // Other indexing: the least and greatest index over the loops'
        // steps, unless a loop runs no step at all.
        if (!isBounded(expr)) {
          std::string text;
          llvm::raw_string_ostream os(text);
          os << expr;
          return linalgOp->emitError()
                 << "'" << linalgOp->getName() << "' indexes " << which
                 << " with '" << text
                 << "', which pcc cannot check at run time for operands "
                    "whose sizes are known only then; give the operands "
                    "static shapes";
        }
        auto [least, most] = indexRange(checks, expr, loops);
        Value fine = arith::OrIOp::create(
            builder, loc, anyEmpty,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                  least, checks.constant(0)));
        checks.require(
            fine, which + " is indexed at {0}" + where + ", before its start",
            {least});
        checks.require(
            arith::OrIOp::create(
                builder, loc, anyEmpty,
                arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      most, size)),
            which + " has size {0}" + where +
                ", too small for the index {1} that the op reaches",
            {size, most});
      }
    }
    return success();
  }

  /// Whether indexRange can bound `expr` without overflow: sums, products
  /// with constants, and divisions and remainders by positive constants,
  /// whose values stay below 2^62 for loops of up to 2^48 steps (no tensor
  /// axis is longer).
  static bool isBounded(AffineExpr expr) {
    std::function<std::optional<__int128>(AffineExpr)> magnitude =
        [&](AffineExpr e) -> std::optional<__int128> {
      if (isa<AffineDimExpr>(e))
        return __int128(1) << 48;
      if (auto constant = dyn_cast<AffineConstantExpr>(e))
        return constant.getValue() < 0 ? -__int128(constant.getValue())
                                       : __int128(constant.getValue());
      auto binary = dyn_cast<AffineBinaryOpExpr>(e);
      if (!binary)
        return std::nullopt;
      std::optional<__int128> lhs = magnitude(binary.getLHS()),
                              rhs = magnitude(binary.getRHS());
      if (!lhs || !rhs || *lhs > (__int128(1) << 62) ||
          *rhs > (__int128(1) << 62))
        return std::nullopt;
      auto constantRhs = dyn_cast<AffineConstantExpr>(binary.getRHS());
      switch (e.getKind()) {
      case AffineExprKind::Add:
        return *lhs + *rhs;
      case AffineExprKind::Mul:
        if (!isa<AffineConstantExpr>(binary.getLHS()) && !constantRhs)
          return std::nullopt;
        return *lhs * *rhs;
      case AffineExprKind::FloorDiv:
      case AffineExprKind::CeilDiv:
      case AffineExprKind::Mod:
        if (!constantRhs || constantRhs.getValue() <= 0)
          return std::nullopt;
        return e.getKind() == AffineExprKind::Mod ? std::min(*lhs, *rhs) : *lhs;
      default:
        return std::nullopt;
      }
    };
    std::optional<__int128> bound = magnitude(expr);
    return bound && *bound < (__int128(1) << 62);
  }

  /// The least and greatest value of `expr` (isBounded) over loops of
  /// `loops` steps, as index values: interval arithmetic, exact for sums
  /// of multiples of the loop indices.
  std::pair<Value, Value> indexRange(CheckBuilder &checks, AffineExpr expr,
                                     ArrayRef<Value> loops) {
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return {checks.constant(0),
              arith::SubIOp::create(builder, loc, loops[dim.getPosition()],
                                    checks.constant(1))};
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      Value value = checks.constant(constant.getValue());
      return {value, value};
    }
    auto binary = cast<AffineBinaryOpExpr>(expr);
    if (expr.getKind() == AffineExprKind::Add) {
      auto [lhsLeast, lhsMost] = indexRange(checks, binary.getLHS(), loops);
      auto [rhsLeast, rhsMost] = indexRange(checks, binary.getRHS(), loops);
      return {arith::AddIOp::create(builder, loc, lhsLeast, rhsLeast),
              arith::AddIOp::create(builder, loc, lhsMost, rhsMost)};
    }
    // The other side of a product, a division or a remainder is a constant.
    AffineExpr variable = binary.getLHS();
    int64_t factor;
    if (auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS())) {
      factor = constant.getValue();
    } else {
      variable = binary.getRHS();
      factor = cast<AffineConstantExpr>(binary.getLHS()).getValue();
    }
    auto [least, most] = indexRange(checks, variable, loops);
    Value k = checks.constant(factor);
    switch (expr.getKind()) {
    case AffineExprKind::Mul: {
      Value a = arith::MulIOp::create(builder, loc, least, k),
            b = arith::MulIOp::create(builder, loc, most, k);
      return factor >= 0 ? std::pair{a, b} : std::pair{b, a};
    }
    case AffineExprKind::FloorDiv:
      return {arith::FloorDivSIOp::create(builder, loc, least, k),
              arith::FloorDivSIOp::create(builder, loc, most, k)};
    case AffineExprKind::CeilDiv:
      return {arith::CeilDivSIOp::create(builder, loc, least, k),
              arith::CeilDivSIOp::create(builder, loc, most, k)};
    default: {
      // A remainder is the value itself where that lies in [0, k), and
      // somewhere in [0, k) otherwise.
      Value fromZero = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sge, least, checks.constant(0));
      Value belowK = arith::CmpIOp::create(builder, loc,
                                           arith::CmpIPredicate::slt, most, k);
      Value within = arith::AndIOp::create(builder, loc, fromZero, belowK);
      return {arith::SelectOp::create(builder, loc, within, least,
                                      checks.constant(0)),
              arith::SelectOp::create(builder, loc, within, most,
                                      checks.constant(factor - 1))};
    }
    }
  }

  /// A loop's step is positive (a step of 0, or a negative one, would loop
  /// forever), and its induction variable does not overflow when it steps
  /// past the upper bound from its last value (it would wrap around: loop
  /// forever or run a wrong number of steps). Loops whose bounds and step
  /// are constants that pass both are left alone.
  void checkLoop(CheckBuilder &checks, LoopLikeOpInterface loop) {
    std::optional<SmallVector<OpFoldResult>> lows = loop.getLoopLowerBounds(),
                                             highs = loop.getLoopUpperBounds(),
                                             steps = loop.getLoopSteps();
    std::optional<SmallVector<Value>> variables = loop.getLoopInductionVars();
    if (!lows || !highs || !steps || !variables)
      return;
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    bool isUnsigned = forOp && forOp.getUnsignedCmp();
    for (auto [low, high, step, variable] :
         llvm::zip(*lows, *highs, *steps, *variables)) {
      Type type = variable.getType();
      unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
      auto known = [&](OpFoldResult bound) -> std::optional<llvm::APInt> {
        std::optional<int64_t> value = getConstantIntValue(bound);
        if (!value)
          return std::nullopt;
        return llvm::APInt(64, uint64_t(*value), /*isSigned=*/true)
            .sextOrTrunc(width);
      };
      std::optional<llvm::APInt> lowValue = known(low), highValue = known(high),
                                 stepValue = known(step);
      if (lowValue && highValue && stepValue) {
        bool positive =
            isUnsigned ? !stepValue->isZero() : stepValue->isStrictlyPositive();
        bool runs =
            isUnsigned ? lowValue->ult(*highValue) : lowValue->slt(*highValue);
        bool overflow = false;
        if (positive && runs) {
          llvm::APInt last =
              *lowValue +
              (*highValue - *lowValue - 1).udiv(*stepValue) * *stepValue;
          (void)(isUnsigned ? last.uadd_ov(*stepValue, overflow)
                            : last.sadd_ov(*stepValue, overflow));
        }
        if (positive && !overflow)
          continue;
      }
      requireLoopSteps(checks, low, high, step, width, isUnsigned);
    }
  }

  /// The run-time checks of checkLoop for one induction variable of
  /// `width` bits.
  void requireLoopSteps(CheckBuilder &checks, OpFoldResult low,
                        OpFoldResult high, OpFoldResult step, unsigned width,
                        bool isUnsigned) {
    OpBuilder &builder = checks.builder;
    Location loc = checks.loc;
    Type narrow = builder.getIntegerType(width),
         wide = builder.getIntegerType(2 * width);
    auto integer = [&](OpFoldResult bound) -> Value {
      Value value = getValueOrCreateConstantIntOp(builder, loc, bound);
      if (value.getType().isIndex())
        value = arith::IndexCastOp::create(builder, loc, narrow, value);
      return value;
    };
    auto constant = [&](Type type, const llvm::APInt &value) -> Value {
      return arith::ConstantOp::create(builder, loc,
                                       builder.getIntegerAttr(type, value));
    };
    auto cmp = [&](arith::CmpIPredicate predicate, Value a, Value b) {
      return arith::CmpIOp::create(builder, loc, predicate, a, b);
    };
    // The values in the messages, as the runtime takes them (i64).
    auto shown = [&](Value value) -> Value {
      if (width == 64)
        return value;
      return isUnsigned
                 ? Value(arith::ExtUIOp::create(builder, loc,
                                                builder.getI64Type(), value))
                 : Value(arith::ExtSIOp::create(builder, loc,
                                                builder.getI64Type(), value));
    };
    Value lowValue = integer(low), highValue = integer(high),
          stepValue = integer(step);
    Value zero = constant(narrow, llvm::APInt(width, 0)),
          one = constant(narrow, llvm::APInt(width, 1));
    Value positive =
        cmp(isUnsigned ? arith::CmpIPredicate::ne : arith::CmpIPredicate::sgt,
            stepValue, zero);
    checks.require(positive,
                   isUnsigned ? "loop step {0} is zero"
                              : "loop step {0} is not positive",
                   {shown(stepValue)});
    // The last value, low + ((high - low - 1) / step) * step, at most
    // high - 1: nothing here overflows. Then one step more, in an integer
    // twice as wide.
    Value runs =
        cmp(isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
            lowValue, highValue);
    Value span = arith::SubIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, highValue, lowValue),
        one);
    Value steps = arith::DivUIOp::create(
        builder, loc, span,
        arith::SelectOp::create(builder, loc, positive, stepValue, one));
    Value last = arith::AddIOp::create(
        builder, loc, lowValue,
        arith::MulIOp::create(builder, loc, steps, stepValue));
    auto widen = [&](Value value) -> Value {
      return isUnsigned
                 ? Value(arith::ExtUIOp::create(builder, loc, wide, value))
                 : Value(arith::ExtSIOp::create(builder, loc, wide, value));
    };
    llvm::APInt most =
        isUnsigned ? llvm::APInt::getMaxValue(width).zext(2 * width)
                   : llvm::APInt::getSignedMaxValue(width).sext(2 * width);
    Value lastWide = widen(last), stepWide = widen(stepValue);
    Value beyond = arith::AddIOp::create(builder, loc, lastWide, stepWide);
    Value fits = cmp(arith::CmpIPredicate::sle, beyond, constant(wide, most));
    checks.require(
        arith::OrIOp::create(builder, loc,
                             arith::XOrIOp::create(builder, loc, runs,
                                                   arith::ConstantIntOp::create(
                                                       builder, loc, 1, 1)),
                             fits),
        "the loop's step {1} from {0} overflows its " + std::to_string(width) +
            "-bit induction variable",
        {shown(last), shown(stepValue)});
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
  /// smaller tensor, read from outside the source), the padded tensor is
  /// no larger than 2^48 bytes, and a static result size is what the
  /// padding makes (else the op would write past the result or leave part
  /// of it unwritten).
  void checkPad(CheckBuilder &checks, tensor::PadOp pad) {
    if (pad.getLow().empty() && pad.getHigh().empty() &&
        pad.getSourceType().hasStaticShape())
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
        // No longer than any axis can be, so that the sum cannot wrap.
        checks.require(
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle,
                                  amount, checks.constant(kMaxBytes)),
            std::string(side) + " padding {0} of axis " + std::to_string(axis) +
                " makes the tensor larger than 2^48 bytes",
            {amount});
        size = arith::AddIOp::create(builder, loc, size, amount);
      }
      if (pad.getResultType().isDynamicDim(axis)) {
        sizes.push_back(size);
        continue;
      }
      Value expected = checks.constant(pad.getResultType().getDimSize(axis));
      checks.require(arith::CmpIOp::create(builder, loc,
                                           arith::CmpIPredicate::eq, size,
                                           expected),
                     "axis " + std::to_string(axis) +
                         " padded to {0} elements where the result has {1}",
                     {size, expected});
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
