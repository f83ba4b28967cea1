//===- LowerCollectives.cpp - collectives as pcc runtime calls -----------===//
//
// In device functions (made by pcc-outline-pmaps), replaces axis_index by
// arithmetic on the device index and each collective by an spmd.runtime_call
// of the pcc runtime (pcc_runtime.h's pcc_mlir_* shims), still on tensors
// and in destination-passing style, so that bufferization sees what every
// call reads and writes. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERCOLLECTIVES
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

namespace {
/// Rewrites the axis_index ops and collectives of one device function.
class CollectiveLowering {
public:
  CollectiveLowering(func::FuncOp function, SymbolTable &symbols,
                     bool stridedOperands)
      : function(function), symbols(symbols), stridedOperands(stridedOperands),
        sizes(function->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName)
                  .asArrayRef()) {}

  LogicalResult run();

private:
  Value lowerAxisIndex(OpBuilder &builder, AxisIndexOp op);
  Value lowerCollective(OpBuilder &builder, AxisOpInterface op);
  /// This device's coordinate along grid axis `axis`.
  Value getCoordinate(OpBuilder &builder, Location loc, int64_t axis);
  /// A NUL-terminated i8 buffer describing `op` and where it is in the
  /// source (one constant global per distinct text).
  Value getSiteString(OpBuilder &builder, Operation *op);

  func::FuncOp function;
  SymbolTable &symbols;
  bool stridedOperands;
  /// The site strings read so far (at the function's entry), by text.
  llvm::StringMap<Value> siteStrings;
  ArrayRef<int64_t> sizes;
  Value device;      // i64, the function's first argument
  Value deviceIndex; // the same, as an index
  Value gridDims;    // memref<Kxi64> holding `sizes`
};
} // namespace

LogicalResult CollectiveLowering::run() {
  Location loc = function.getLoc();
  OpBuilder builder(function.getBody());
  device = function.getArgument(0);
  deviceIndex =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), device);

  // The grid's sizes, as a constant global the runtime reads.
  OpBuilder moduleBuilder(function);
  auto gridType = MemRefType::get({static_cast<int64_t>(sizes.size())},
                                  builder.getI64Type());
  auto global = memref::GlobalOp::create(
      moduleBuilder, loc, ("_pcc_" + function.getSymName() + "_grid").str(),
      moduleBuilder.getStringAttr("private"), gridType,
      DenseElementsAttr::get(
          RankedTensorType::get(gridType.getShape(), builder.getI64Type()),
          sizes),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global);
  gridDims =
      memref::GetGlobalOp::create(builder, loc, gridType, global.getSymName());

  SmallVector<AxisOpInterface> ops;
  function.walk([&](AxisOpInterface op) { ops.push_back(op); });
  for (AxisOpInterface op : ops)
    if (isa<PmeanOp>(op))
      return op->emitOpError() << "must be expanded by pcc-expand-pmean "
                                  "before collectives are lowered";
  for (AxisOpInterface op : ops) {
    builder.setInsertionPoint(op);
    Value replacement =
        isa<AxisIndexOp>(op)
            ? lowerAxisIndex(builder, cast<AxisIndexOp>(op.getOperation()))
            : lowerCollective(builder, op);
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
  return success();
}

Value CollectiveLowering::getCoordinate(OpBuilder &builder, Location loc,
                                        int64_t axis) {
  int64_t stride = 1;
  for (int64_t size : sizes.drop_front(axis + 1))
    stride *= size;
  Value strideValue = arith::ConstantIndexOp::create(builder, loc, stride);
  Value sizeValue = arith::ConstantIndexOp::create(builder, loc, sizes[axis]);
  Value quotient =
      arith::DivUIOp::create(builder, loc, deviceIndex, strideValue);
  return arith::RemUIOp::create(builder, loc, quotient, sizeValue);
}

Value CollectiveLowering::lowerAxisIndex(OpBuilder &builder, AxisIndexOp op) {
  // Row-major over the named axes, in the order they are named.
  Location loc = op.getLoc();
  Value linear;
  for (int64_t axis : getAxisPositions(op)) {
    Value coordinate = getCoordinate(builder, loc, axis);
    if (!linear) {
      linear = coordinate;
      continue;
    }
    Value size = arith::ConstantIndexOp::create(builder, loc, sizes[axis]);
    linear = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, linear, size),
        coordinate);
  }
  return linear;
}

/// "spmd.psum over \"i\" : tensor<4xf32> at prog.mlir:7:10".
static std::string describeCollective(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " over ";
  ArrayAttr axes = cast<AxisOpInterface>(op).getAxisNames();
  if (axes.size() == 1)
    os << axes[0];
  else
    os << axes;
  os << " : " << op->getOperand(0).getType();
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << file.getFilename().getValue() << ":" << file.getLine()
       << ":" << file.getColumn();
  return text;
}

Value CollectiveLowering::getSiteString(OpBuilder &builder, Operation *op) {
  std::string text = describeCollective(op);
  Value &site = siteStrings[text];
  if (site)
    return site;
  OpBuilder moduleBuilder(function);
  memref::GlobalOp global = pcc::createHostString(
      moduleBuilder, symbols, op->getLoc(),
      ("_pcc_" + function.getSymName() + "_site").str(), text);
  // Read once per function, at its entry, not in the loops around the
  // collectives.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  site = memref::GetGlobalOp::create(entry, op->getLoc(), global.getType(),
                                     global.getSymName());
  return site;
}

/// Whether the axes of `op` are named in grid order, the order in which the
/// runtime stacks a group's values (outer axes first).
static bool isNaturalOrder(AxisOpInterface op) {
  return llvm::is_sorted(getAxisPositions(op));
}

/// `over ["j", "i"]` asks for the order as written. Reorders the leading
/// dimension of `stacked` from the runtime's order to that one.
static Value reorderGroup(OpBuilder &builder, Location loc, AxisOpInterface op,
                          Value stacked) {
  if (isNaturalOrder(op))
    return stacked;
  SmallVector<int64_t> positions = getAxisPositions(op);
  SmallVector<int64_t> gridOrder(positions);
  llvm::sort(gridOrder);

  // [N, S...] -> [n_a, n_b, ..., S...] in grid order, transposed to the
  // written order, and collapsed back to [N, S...].
  auto type = cast<RankedTensorType>(stacked.getType());
  ArrayRef<int64_t> sizes =
      op->getParentOfType<func::FuncOp>()
          ->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName)
          .asArrayRef();
  int64_t numAxes = positions.size();
  int64_t rank = numAxes + type.getRank() - 1;
  SmallVector<int64_t> expandedShape, permutation, transposedShape;
  for (int64_t axis : gridOrder)
    expandedShape.push_back(sizes[axis]);
  llvm::append_range(expandedShape, type.getShape().drop_front());
  for (int64_t axis : positions)
    permutation.push_back(llvm::find(gridOrder, axis) - gridOrder.begin());
  for (int64_t dim = numAxes; dim < rank; ++dim)
    permutation.push_back(dim);
  for (int64_t dim : permutation)
    transposedShape.push_back(expandedShape[dim]);

  SmallVector<ReassociationIndices> groups(1);
  for (int64_t dim = 0; dim < numAxes; ++dim)
    groups[0].push_back(dim);
  for (int64_t dim = numAxes; dim < rank; ++dim)
    groups.push_back({dim});
  Type elementType = type.getElementType();
  Value expanded = tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(expandedShape, elementType), stacked,
      groups);
  Value init =
      tensor::EmptyOp::create(builder, loc, transposedShape, elementType);
  Value transposed =
      linalg::TransposeOp::create(builder, loc, expanded, init, permutation)
          ->getResult(0);
  return tensor::CollapseShapeOp::create(builder, loc, type, transposed,
                                         groups);
}

Value CollectiveLowering::lowerCollective(OpBuilder &builder,
                                          AxisOpInterface op) {
  Location loc = op.getLoc();
  Value input = op->getOperand(0);
  Type elementType = getElementTypeOrSelf(input.getType());
  bool scalar = !isa<RankedTensorType>(input.getType());
  if (scalar)
    input = tensor::FromElementsOp::create(
        builder, loc, RankedTensorType::get({}, elementType), input);
  auto inputType = cast<RankedTensorType>(input.getType());

  int64_t mask = 0;
  for (int64_t axis : getAxisPositions(op))
    mask |= int64_t(1) << axis;
  Value maskValue = arith::ConstantIntOp::create(builder, loc, mask, 64);
  Value site = getSiteString(builder, op);
  const pcc::abi::ElementType &runtimeType =
      *getRuntimeElementType(elementType);
  // Calls the runtime function `name` with `args`, then the call site's
  // description and `input`, writing `output`.
  auto callRuntime = [&](StringRef name, SmallVector<Value> args, Value output,
                         bool elementwise) -> Value {
    args.append({site, input});
    return RuntimeCallOp::create(builder, loc, output.getType(), name, args,
                                 output, elementwise, !stridedOperands)
        .getResult();
  };

  if (auto gather = dyn_cast<AllGatherOp>(op.getOperation())) {
    int64_t groupSize = getGroupSize(op);
    SmallVector<int64_t> stackedShape{groupSize};
    llvm::append_range(stackedShape, inputType.getShape());
    auto stackedType = RankedTensorType::get(stackedShape, elementType);
    // The runtime writes the values stacked in its order into a buffer of
    // `type`'s shape.
    int64_t axis = gather.getAxis();
    auto callAllGather = [&](RankedTensorType type) {
      return callRuntime(
          pcc::abi::getAllGatherFunction(runtimeType),
          {device, gridDims, maskValue},
          tensor::EmptyOp::create(builder, loc, type.getShape(), elementType),
          /*elementwise=*/false);
    };
    // Tiled at dimension 0 in the runtime's order, that is the result (and
    // empty-tensor elimination may have the call write the pmap's result
    // slice directly).
    if (gather.getTiled() && axis == 0 && isNaturalOrder(op))
      return callAllGather(gather.getType());
    Value result = callAllGather(stackedType);
    result = reorderGroup(builder, loc, op, result);

    // The runtime stacks at dimension 0: move it to `axis`, then merge it
    // with the next dimension for `tiled`.
    if (axis != 0) {
      SmallVector<int64_t> permutation, shape;
      for (int64_t dim = 0; dim <= inputType.getRank(); ++dim)
        permutation.push_back(dim < axis ? dim + 1 : dim == axis ? 0 : dim);
      for (int64_t dim : permutation)
        shape.push_back(stackedShape[dim]);
      Value init = tensor::EmptyOp::create(builder, loc, shape, elementType);
      result =
          linalg::TransposeOp::create(builder, loc, result, init, permutation)
              ->getResult(0);
    }
    if (gather.getTiled()) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t dim = 0; dim <= inputType.getRank(); ++dim) {
        if (dim == axis + 1)
          groups.back().push_back(dim);
        else
          groups.push_back({dim});
      }
      result = tensor::CollapseShapeOp::create(builder, loc, gather.getType(),
                                               result, groups);
    }
    return result;
  }

  int32_t reduction = llvm::TypeSwitch<Operation *, int32_t>(op)
                          .Case<PsumOp>([](auto) { return PCC_SUM; })
                          .Case<PmaxOp>([](auto) { return PCC_MAX; })
                          .Case<PminOp>([](auto) { return PCC_MIN; });
  Value reductionValue =
      arith::ConstantIntOp::create(builder, loc, reduction, 32);
  // Into an empty tensor: the pmap's result slice where empty-tensor
  // elimination can, else a buffer of its own. (Writing in place of the
  // input would chain every value of a body into one alias set, whose
  // analysis costs time cubic in its length; pcc-reuse-loop-buffers has a
  // sum that a loop carries write in place of the loop's value.)
  Value output =
      tensor::EmptyOp::create(builder, loc, inputType.getShape(), elementType);
  Value result = callRuntime(pcc::abi::getAllReduceFunction(runtimeType),
                             {device, gridDims, maskValue, reductionValue},
                             output, /*elementwise=*/true);
  if (scalar)
    result = tensor::ExtractOp::create(builder, loc, result, ValueRange{});
  return result;
}

namespace {
struct PCCLowerCollectivesPass
    : public pcc::impl::PCCLowerCollectivesBase<PCCLowerCollectivesPass> {
  using PCCLowerCollectivesBase::PCCLowerCollectivesBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> devices;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr(kGridSizesAttrName))
        devices.push_back(function);
    for (func::FuncOp function : devices)
      if (failed(CollectiveLowering(function, symbols, stridedOperands).run()))
        return signalPassFailure();
  }
};
} // namespace
