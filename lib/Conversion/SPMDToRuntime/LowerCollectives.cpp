//===- LowerCollectives.cpp - collectives as pcc runtime calls -----------===//
//
// In device functions (made by pcc-outline-pmaps), replaces axis_index by
// arithmetic on the device index and each collective by an spmd.runtime_call
// of the runtime's pcc_collective (pcc_runtime.h), still on tensors and in
// destination-passing style, so that bufferization sees what every call
// reads and writes. See the pass description in Passes.td.
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

#include <map>
#include <vector>

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
                     llvm::StringMap<unsigned> &siteTexts)
      : function(function), symbols(symbols), siteTexts(siteTexts),
        sizes(function->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName)
                  .asArrayRef()) {}

  LogicalResult run();

private:
  Value lowerAxisIndex(OpBuilder &builder, AxisIndexOp op);
  Value lowerCollective(OpBuilder &builder, AxisOpInterface op);
  /// Calls the runtime's collective `kind` for `op` on `input`, with
  /// `table` (groups or sources) and `reduction`, writing an empty tensor of
  /// `resultType`.
  Value callRuntime(OpBuilder &builder, AxisOpInterface op,
                    pcc_collective_kind kind, ArrayRef<int64_t> table,
                    int32_t reduction, Value input, RankedTensorType resultType,
                    bool elementwise);
  /// A constant i64 buffer holding `values`, read at the function's entry
  /// (one global per distinct content, named after `what`).
  Value getTable(OpBuilder &builder, Location loc, ArrayRef<int64_t> values,
                 StringRef what);
  /// The runtime's groups table of `op` (empty without `groups`).
  SmallVector<int64_t> getGroupsTable(AxisOpInterface op);
  /// This device's coordinate along grid axis `axis`.
  Value getCoordinate(OpBuilder &builder, Location loc, int64_t axis);
  /// A NUL-terminated i8 buffer describing `op` and where it is in the
  /// source: one constant global per call site, whose text no other site of
  /// the program has (the runtime tells sites apart by it).
  Value getSiteString(OpBuilder &builder, Operation *op);

  func::FuncOp function;
  SymbolTable &symbols;
  /// How many sites of the module have had each text so far.
  llvm::StringMap<unsigned> &siteTexts;
  /// The tables read so far (at the function's entry), by content.
  std::map<std::vector<int64_t>, Value> tables;
  ArrayRef<int64_t> sizes;
  Value device;      // i64, the function's first argument
  Value deviceIndex; // the same, as an index
};
} // namespace

LogicalResult CollectiveLowering::run() {
  Location loc = function.getLoc();
  OpBuilder builder(function.getBody());
  device = function.getArgument(0);
  deviceIndex =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), device);

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
  if (auto writtenAs = op->getAttrOfType<StringAttr>(kWrittenAsAttrName))
    os << writtenAs.getValue() << " over ";
  else
    os << op->getName() << " over ";
  ArrayAttr axes = cast<AxisOpInterface>(op).getAxisNames();
  if (axes.size() == 1)
    os << axes[0];
  else
    os << axes;
  os << " : " << op->getOperand(0).getType();
  // The file position inside call-site, fused or named locations too, so
  // that sites differ in their text.
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " at " << file.getFilename().getValue() << ":" << file.getLine()
       << ":" << file.getColumn();
  return text;
}

Value CollectiveLowering::getSiteString(OpBuilder &builder, Operation *op) {
  std::string text = describeCollective(op);
  // Two sites at one location (a location written twice, or none) are
  // still two: devices that reach different ones must not meet.
  if (unsigned earlier = siteTexts[text]++)
    text +=
        " (collective " + std::to_string(earlier + 1) + " at this location)";
  OpBuilder moduleBuilder(function);
  memref::GlobalOp global = pcc::createHostString(
      moduleBuilder, symbols, op->getLoc(),
      ("_pcc_" + function.getSymName() + "_site").str(), text);
  // Read once per function, at its entry, not in the loops around the
  // collectives.
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  return memref::GetGlobalOp::create(entry, op->getLoc(), global.getType(),
                                     global.getSymName());
}

Value CollectiveLowering::getTable(OpBuilder &builder, Location loc,
                                   ArrayRef<int64_t> values, StringRef what) {
  Value &table = tables[std::vector<int64_t>(values.begin(), values.end())];
  if (table)
    return table;
  OpBuilder moduleBuilder(function);
  auto type = MemRefType::get({int64_t(values.size())}, builder.getI64Type());
  auto global = memref::GlobalOp::create(
      moduleBuilder, loc, ("_pcc_" + function.getSymName() + "_" + what).str(),
      moduleBuilder.getStringAttr("private"), type,
      DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), builder.getI64Type()), values),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  global->setAttr(pcc::kHostOnlyAttrName, builder.getUnitAttr());
  symbols.insert(global);
  OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
  table = memref::GetGlobalOp::create(entry, loc, type, global.getSymName());
  return table;
}

SmallVector<int64_t> CollectiveLowering::getGroupsTable(AxisOpInterface op) {
  ArrayAttr groups = op.getGroupsAttr();
  if (!groups)
    return {};
  // pcc_runtime.h's layout: the members in order; then for each position,
  // where it is among them, where its group starts, and its group's size.
  int64_t size = sizes[getAxisPositions(op).front()];
  SmallVector<int64_t> table(4 * size);
  int64_t at = 0;
  for (Attribute attr : groups) {
    ArrayRef<int64_t> group = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    int64_t start = at;
    for (int64_t position : group) {
      table[at] = position;
      table[size + position] = at++;
      table[2 * size + position] = start;
      table[3 * size + position] = int64_t(group.size());
    }
  }
  return table;
}

/// Whether the axes of `op` are named in grid order, the order in which the
/// runtime ranks a group's members (outer axes first).
static bool isNaturalOrder(AxisOpInterface op) {
  return llvm::is_sorted(getAxisPositions(op));
}

/// The runtime's rank (row-major over the named axes in grid order) of the
/// device at position `index` along the axes of `op` as written.
static int64_t getRuntimeRank(AxisOpInterface op, ArrayRef<int64_t> sizes,
                              int64_t index) {
  SmallVector<int64_t> positions = getAxisPositions(op);
  SmallVector<int64_t> coordinates(sizes.size(), 0);
  for (int64_t axis : llvm::reverse(positions)) {
    coordinates[axis] = index % sizes[axis];
    index /= sizes[axis];
  }
  llvm::sort(positions);
  int64_t rank = 0;
  for (int64_t axis : positions)
    rank = rank * sizes[axis] + coordinates[axis];
  return rank;
}

/// `over ["j", "i"]` asks for the order as written. Reorders the leading
/// dimension of `stacked` (one entry per member) from the runtime's order
/// to that one, or back where `toRuntime`.
static Value reorderGroup(OpBuilder &builder, Location loc, AxisOpInterface op,
                          Value stacked, bool toRuntime = false) {
  if (isNaturalOrder(op))
    return stacked;
  SmallVector<int64_t> positions = getAxisPositions(op);
  SmallVector<int64_t> gridOrder(positions);
  llvm::sort(gridOrder);
  // [N, S...] -> [n_a, n_b, ..., S...] in one order, transposed to the
  // other, and collapsed back to [N, S...].
  SmallVector<int64_t> from = toRuntime ? positions : gridOrder;
  SmallVector<int64_t> to = toRuntime ? gridOrder : positions;

  auto type = cast<RankedTensorType>(stacked.getType());
  ArrayRef<int64_t> sizes =
      op->getParentOfType<func::FuncOp>()
          ->getAttrOfType<DenseI64ArrayAttr>(kGridSizesAttrName)
          .asArrayRef();
  int64_t numAxes = positions.size();
  int64_t rank = numAxes + type.getRank() - 1;
  SmallVector<int64_t> expandedShape, permutation, transposedShape;
  for (int64_t axis : from)
    expandedShape.push_back(sizes[axis]);
  llvm::append_range(expandedShape, type.getShape().drop_front());
  for (int64_t axis : to)
    permutation.push_back(llvm::find(from, axis) - from.begin());
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

/// Moves dimension `from` of `value` to position `to`.
static Value moveDimension(OpBuilder &builder, Location loc, Value value,
                           int64_t from, int64_t to) {
  if (from == to)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> permutation;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (dim != from)
      permutation.push_back(dim);
  permutation.insert(permutation.begin() + to, from);
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  Value init =
      tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(builder, loc, value, init, permutation)
      ->getResult(0);
}

/// `value` split into `parts` parts along `dim` (each the index along it
/// or, `tiled`, a block of it), stacked at dimension 0 as the runtime
/// takes them.
static Value splitToFront(OpBuilder &builder, Location loc, Value value,
                          int64_t dim, int64_t parts, bool tiled) {
  if (tiled) {
    // [.., P*B, ..] -> [.., P, B, ..].
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape;
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      groups.push_back({int64_t(shape.size())});
      if (d == dim) {
        shape.append({parts, type.getDimSize(d) / parts});
        groups.back().push_back(int64_t(shape.size()) - 1);
      } else {
        shape.push_back(type.getDimSize(d));
      }
    }
    value = tensor::ExpandShapeOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        value, groups);
  }
  return moveDimension(builder, loc, value, dim, 0);
}

/// The runtime's members stacked at dimension 0 of `stacked`, placed as
/// `axis` and `tiled` of all_gather say: moved to dimension `axis`, then
/// merged with the next dimension for `tiled`.
static Value placeStacked(OpBuilder &builder, Location loc, Value stacked,
                          int64_t axis, bool tiled, Type resultType) {
  Value result = moveDimension(builder, loc, stacked, 0, axis);
  if (!tiled)
    return result;
  SmallVector<ReassociationIndices> groups;
  int64_t rank = cast<RankedTensorType>(result.getType()).getRank();
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (dim == axis + 1)
      groups.back().push_back(dim);
    else
      groups.push_back({dim});
  }
  return tensor::CollapseShapeOp::create(
      builder, loc, cast<RankedTensorType>(resultType), result, groups);
}

/// A hash of `type`'s shape (FNV-1a over the rank and the sizes): devices
/// that meet with inputs of one element count but different shapes are
/// told apart.
static int64_t hashShape(RankedTensorType type) {
  uint64_t hash = 1469598103934665603ull ^ uint64_t(type.getRank());
  for (int64_t size : type.getShape())
    hash = (hash ^ uint64_t(size)) * 1099511628211ull;
  return int64_t(hash);
}

Value CollectiveLowering::callRuntime(OpBuilder &builder, AxisOpInterface op,
                                      pcc_collective_kind kind,
                                      ArrayRef<int64_t> table,
                                      int32_t reduction, Value input,
                                      RankedTensorType resultType,
                                      bool elementwise) {
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = resultType.getElementType();
  int64_t mask = 0;
  for (int64_t axis : getAxisPositions(op))
    mask |= int64_t(1) << axis;
  // pcc_collective_site, the grid's sizes after its fields.
  SmallVector<int64_t> site(pcc::abi::kSiteFields);
  site[pcc::abi::kSite_kind] = kind;
  site[pcc::abi::kSite_dtype] = getRuntimeElementType(elementType)->code;
  site[pcc::abi::kSite_reduction] = reduction;
  site[pcc::abi::kSite_count] = inputType.getNumElements();
  site[pcc::abi::kSite_shape] = hashShape(inputType);
  site[pcc::abi::kSite_axes_mask] = mask;
  site[pcc::abi::kSite_table_size] = int64_t(table.size());
  site[pcc::abi::kSite_grid_rank] = int64_t(sizes.size());
  llvm::append_range(site, sizes);
  SmallVector<Value> args{getTable(builder, loc, site, "collective"),
                          getTable(builder, loc, table, "table"),
                          getSiteString(builder, op), device, input};
  Value output =
      tensor::EmptyOp::create(builder, loc, resultType.getShape(), elementType);
  return RuntimeCallOp::create(builder, loc, output.getType(), "pcc_collective",
                               args, output, elementwise)
      .getResult();
}

/// The reduction of a psum, pmax or pmin (PCC_SUM, ...), or 0 (none).
static int32_t getReduction(Operation *op) {
  return llvm::TypeSwitch<Operation *, int32_t>(op)
      .Case<PsumOp, PsumScatterOp>([](auto) { return PCC_SUM; })
      .Case<PmaxOp>([](auto) { return PCC_MAX; })
      .Case<PminOp>([](auto) { return PCC_MIN; })
      .Default([](auto) { return 0; });
}

Value CollectiveLowering::lowerCollective(OpBuilder &builder,
                                          AxisOpInterface op) {
  Location loc = op.getLoc();
  Value input = op->getOperand(0);
  Type elementType = getElementTypeOrSelf(input.getType());
  if (!isa<RankedTensorType>(input.getType()))
    input = tensor::FromElementsOp::create(
        builder, loc, RankedTensorType::get({}, elementType), input);
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t groupSize = getGroupSize(op);
  auto stackedOf = [&](RankedTensorType part) {
    SmallVector<int64_t> shape{groupSize};
    llvm::append_range(shape, part.getShape());
    return RankedTensorType::get(shape, elementType);
  };
  // Every collective but the permutes takes the groups table.
  SmallVector<int64_t> groupsTable;
  if (!isa<PpermuteOp, PshuffleOp, PbroadcastOp>(op))
    groupsTable = getGroupsTable(op);

  Value result =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](AllGatherOp gather) -> Value {
            int64_t axis = gather.getAxis();
            // Tiled at dimension 0 in the runtime's order, that is the
            // result (and empty-tensor elimination may have the call
            // write the pmap's result slice directly).
            if (gather.getTiled() && axis == 0 && isNaturalOrder(op))
              return callRuntime(builder, op, PCC_ALL_GATHER, groupsTable, 0,
                                 input, gather.getType(), false);
            Value stacked =
                callRuntime(builder, op, PCC_ALL_GATHER, groupsTable, 0, input,
                            stackedOf(inputType), false);
            stacked = reorderGroup(builder, loc, op, stacked);
            return placeStacked(builder, loc, stacked, axis, gather.getTiled(),
                                gather.getType());
          })
          .Case([&](PsumScatterOp scatter) -> Value {
            Value parts = splitToFront(builder, loc, input, scatter.getDim(),
                                       groupSize, scatter.getTiled());
            parts = reorderGroup(builder, loc, op, parts, /*toRuntime=*/true);
            return callRuntime(
                builder, op, PCC_REDUCE_SCATTER, groupsTable, PCC_SUM, parts,
                cast<RankedTensorType>(scatter.getType()), false);
          })
          .Case([&](AllToAllOp exchange) -> Value {
            Value chunks =
                splitToFront(builder, loc, input, exchange.getSplit(),
                             groupSize, exchange.getTiled());
            chunks = reorderGroup(builder, loc, op, chunks, /*toRuntime=*/true);
            // Concatenated along dimension 0 in the runtime's order, the
            // received chunks are the result as they are.
            if (exchange.getTiled() && exchange.getConcat() == 0 &&
                isNaturalOrder(op))
              return callRuntime(
                  builder, op, PCC_ALL_TO_ALL, groupsTable, 0, chunks,
                  cast<RankedTensorType>(exchange.getType()), false);
            Value received =
                callRuntime(builder, op, PCC_ALL_TO_ALL, groupsTable, 0, chunks,
                            cast<RankedTensorType>(chunks.getType()), false);
            received = reorderGroup(builder, loc, op, received);
            return placeStacked(builder, loc, received, exchange.getConcat(),
                                exchange.getTiled(), exchange.getType());
          })
          .Case<PpermuteOp, PshuffleOp, PbroadcastOp>([&](auto) -> Value {
            // Who each member receives from, by runtime rank.
            auto rankOf = [&](int64_t index) {
              return getRuntimeRank(op, sizes, index);
            };
            SmallVector<int64_t> sources(groupSize, -1);
            if (auto permute = dyn_cast<PpermuteOp>(op.getOperation())) {
              for (Attribute pair : permute.getPerm()) {
                ArrayRef<int64_t> ends =
                    cast<DenseI64ArrayAttr>(pair).asArrayRef();
                sources[rankOf(ends[1])] = rankOf(ends[0]);
              }
            } else if (auto shuffle = dyn_cast<PshuffleOp>(op.getOperation())) {
              for (auto [index, source] : llvm::enumerate(shuffle.getPerm()))
                sources[rankOf(index)] = rankOf(source);
            } else {
              int64_t source =
                  rankOf(cast<PbroadcastOp>(op.getOperation()).getSource());
              sources.assign(groupSize, source);
            }
            return callRuntime(builder, op, PCC_PERMUTE, sources, 0, input,
                               inputType, false);
          })
          .Default([&](Operation *) -> Value {
            // Into an empty tensor: the pmap's result slice where
            // empty-tensor elimination can, else a buffer of its own.
            // (Writing in place of the input would chain every value of a
            // body into one alias set, whose analysis costs time cubic in
            // its length; pcc-reuse-loop-buffers has a sum that a loop
            // carries write in place of the loop's value.)
            return callRuntime(builder, op, PCC_ALL_REDUCE, groupsTable,
                               getReduction(op), input, inputType,
                               /*elementwise=*/true);
          });
  if (!isa<RankedTensorType>(op->getResult(0).getType()))
    result = tensor::ExtractOp::create(builder, loc, result, ValueRange{});
  return result;
}

namespace {
struct PCCLowerCollectivesPass
    : public pcc::impl::PCCLowerCollectivesBase<PCCLowerCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> devices;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr(kGridSizesAttrName))
        devices.push_back(function);
    llvm::StringMap<unsigned> siteTexts;
    for (func::FuncOp function : devices)
      if (failed(CollectiveLowering(function, symbols, siteTexts).run()))
        return signalPassFailure();
  }
};
} // namespace
