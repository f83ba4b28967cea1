//===- OutlinePmaps.cpp - pmap bodies as device functions ----------------===//
//
// Turns each outermost spmd.pmap into a device function plus an spmd.launch,
// flattening nested pmaps into one grid on the way (see the pass description
// in Passes.td for the scheme and why it is correct).
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/Transforms/Passes.h"

#include "DeviceWork.h"

#include "pcc/Dialect/SPMD/Analysis/Uniformity.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace pcc {
#define GEN_PASS_DEF_PCCOUTLINEPMAPS
#include "pcc/Dialect/SPMD/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

/// The identity-layout memref that carries a value of `type` (a ranked
/// tensor, or a scalar as a rank-0 memref).
static MemRefType getBufferType(Type type) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return MemRefType::get(tensorType.getShape(), tensorType.getElementType());
  return MemRefType::get({}, type);
}

/// Slice `index` of `whole` along its leading dimension, without that
/// dimension.
static Value extractLeadingSlice(OpBuilder &builder, Location loc, Value whole,
                                 Value index) {
  auto type = cast<RankedTensorType>(whole.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, builder.getIndexAttr(1));
  offsets[0] = index;
  sizes.push_back(builder.getIndexAttr(1));
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(builder.getIndexAttr(size));
  auto sliceType = cast<RankedTensorType>(PmapOp::getSliceType(type));
  // A slice with no elements has nothing to read (and slice ops reject an
  // offset into a dimension of size 0).
  if (sliceType.getNumElements() == 0)
    return tensor::EmptyOp::create(builder, loc, sliceType.getShape(),
                                   sliceType.getElementType());
  return tensor::ExtractSliceOp::create(builder, loc, sliceType, whole, offsets,
                                        sizes, strides);
}

namespace {
/// Builds the device function for one outermost pmap and replaces the pmap.
class PmapOutliner {
public:
  PmapOutliner(PmapOp root, SymbolTable &symbols)
      : root(root), symbols(symbols), loc(root.getLoc()) {}

  LogicalResult run();

private:
  /// Inlines the nested pmaps of the device function, outermost first, each
  /// on its axis of the grid (PmapOp::getNestAxes).
  void flattenNestedPmaps();
  /// Rejects calls from the device function to functions that run pmaps:
  /// devices cannot start devices.
  LogicalResult checkCallees();
  /// Writes this device's part of each result into the output buffers.
  void writeOutputs(OpBuilder &builder, ValueRange yielded, ValueRange outputs);

  PmapOp root;
  SymbolTable &symbols;
  Location loc;
  func::FuncOp device;
  Value outerIndex;
  SmallVector<Attribute> axes;
  SmallVector<int64_t> sizes;
};
} // namespace

LogicalResult PmapOutliner::run() {
  MLIRContext *context = root.getContext();
  auto parent = root->getParentOfType<func::FuncOp>();
  if (!parent)
    return root.emitOpError("must be inside a 'func.func' to be compiled");

  // Which results every device yields alike (see spmd.launch).
  SmallVector<bool> uniform;
  {
    UniformityAnalysis uniformity(root);
    for (Value value : root.getBody().front().getTerminator()->getOperands())
      uniform.push_back(uniformity.getVaryingAxes(value).empty());
  }

  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(root.getBody(), captured);
  for (Value value : captured)
    if (!isa<RankedTensorType>(value.getType()) &&
        !value.getType().isIntOrIndexOrFloat())
      return root.emitOpError() << "uses a value of type " << value.getType()
                                << " from outside its body; only tensors and "
                                   "scalars can be shared with the devices";

  // Signature: device index, inputs, captured values, outputs.
  OpBuilder builder(context);
  SmallVector<Type> argTypes{builder.getI64Type()};
  for (Value value : root.getInputs())
    argTypes.push_back(getBufferType(value.getType()));
  for (Value value : captured)
    argTypes.push_back(getBufferType(value.getType()));
  for (Type type : root.getResultTypes())
    argTypes.push_back(getBufferType(type));

  builder.setInsertionPointAfter(parent);
  device =
      func::FuncOp::create(builder, loc, (parent.getSymName() + "_pmap").str(),
                           builder.getFunctionType(argTypes, {}));
  symbols.insert(device);
  device.setPrivate();
  device->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  Block *entry = device.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  // Bind the body's block arguments and captured values to the buffers.
  for (auto [name, size] : root.getNestAxes()) {
    axes.push_back(name);
    sizes.push_back(size);
  }
  outerIndex = AxisIndexOp::create(builder, loc, builder.getIndexType(),
                                   builder.getArrayAttr(axes.front()));
  IRMapping mapping;
  unsigned argIndex = 1;
  auto bindBuffer = [&](Value value) -> Value {
    Value buffer = entry->getArgument(argIndex++);
    if (!isa<RankedTensorType>(value.getType()))
      return memref::LoadOp::create(builder, loc, buffer, ValueRange{});
    return bufferization::ToTensorOp::create(builder, loc, value.getType(),
                                             buffer, /*restrict=*/true,
                                             /*writable=*/false);
  };
  for (auto [input, argument] :
       llvm::zip(root.getInputs(), root.getBody().getArguments()))
    mapping.map(argument, extractLeadingSlice(builder, loc, bindBuffer(input),
                                              outerIndex));
  for (Value value : captured)
    mapping.map(value, bindBuffer(value));
  ValueRange outputs = entry->getArguments().drop_front(argIndex);

  // The body, terminator included: its operands are updated as nested pmaps
  // are replaced, and read back once the grid is complete.
  for (Operation &op : root.getBody().front())
    builder.clone(op, mapping);
  auto yield = cast<YieldOp>(entry->back());
  flattenNestedPmaps();
  if (failed(checkCallees()))
    return failure();

  int64_t numDevices = root.getNestDeviceCount();
  // Estimated before the results' writes exist, which it adds itself.
  std::optional<int64_t> work =
      pcc::estimateDeviceWork(device, numDevices, yield.getValues().getTypes());
  builder.setInsertionPoint(yield);
  writeOutputs(builder, yield.getValues(), outputs);
  builder.setInsertionPoint(yield);
  func::ReturnOp::create(builder, loc);
  yield.erase();
  device->setAttr(kGridAxesAttrName, builder.getArrayAttr(axes));
  device->setAttr(kGridSizesAttrName, builder.getDenseI64ArrayAttr(sizes));

  // At the pmap: hand the values to the devices (tensors as they are, for
  // bufferization to place; scalars in stack slots) and take the results
  // from the launch, which fills an empty tensor of each result's type.
  builder.setInsertionPoint(root);
  SmallVector<Value> inputs;
  auto shareValue = [&](Value value) {
    if (isa<RankedTensorType>(value.getType())) {
      inputs.push_back(value);
      return;
    }
    // One stack slot in the entry block, even if the pmap sits in a loop.
    Value buffer;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&parent.getBody().front());
      buffer = memref::AllocaOp::create(builder, loc,
                                        getBufferType(value.getType()));
    }
    memref::StoreOp::create(builder, loc, value, buffer, ValueRange{});
    inputs.push_back(buffer);
  };
  for (Value value : root.getInputs())
    shareValue(value);
  for (Value value : captured)
    shareValue(value);
  SmallVector<Value> inits;
  for (Type type : root.getResultTypes()) {
    auto tensorType = cast<RankedTensorType>(type);
    inits.push_back(tensor::EmptyOp::create(builder, loc, tensorType.getShape(),
                                            tensorType.getElementType()));
  }
  auto launch = LaunchOp::create(
      builder, loc, root.getResultTypes(), device.getSymName(), numDevices,
      inputs, inits, work ? builder.getI64IntegerAttr(*work) : IntegerAttr(),
      builder.getDenseBoolArrayAttr(uniform), DenseBoolArrayAttr());
  ValueRange results = launch.getResults();
  root.replaceAllUsesWith(results);
  root.erase();
  return success();
}

void PmapOutliner::flattenNestedPmaps() {
  while (true) {
    PmapOp inner;
    device.walk<WalkOrder::PreOrder>([&](PmapOp pmap) {
      inner = pmap;
      return WalkResult::interrupt();
    });
    if (!inner)
      return;

    // The root's verifier checked that each name has one size.
    StringAttr name = inner.getAxisNameAttr();
    assert(llvm::is_contained(axes, name) && "every axis is on the grid");

    OpBuilder builder(inner);
    Location innerLoc = inner.getLoc();
    Value index = AxisIndexOp::create(builder, innerLoc, builder.getIndexType(),
                                      builder.getArrayAttr({name}));
    Block &body = inner.getBody().front();
    for (auto [input, argument] :
         llvm::zip(inner.getInputs(), body.getArguments()))
      argument.replaceAllUsesWith(
          extractLeadingSlice(builder, innerLoc, input, index));
    auto yield = cast<YieldOp>(body.getTerminator());
    inner->getBlock()->getOperations().splice(
        Block::iterator(inner), body.getOperations(), body.begin(),
        Block::iterator(yield));
    builder.setInsertionPoint(inner);
    for (auto [result, value] :
         llvm::zip(inner.getResults(), yield.getValues())) {
      if (result.use_empty())
        continue;
      Value gathered =
          AllGatherOp::create(builder, innerLoc, result.getType(), value,
                              builder.getArrayAttr({name}),
                              /*groups=*/nullptr, builder.getI64IntegerAttr(0),
                              /*tiled=*/nullptr);
      result.replaceAllUsesWith(gathered);
    }
    inner.erase();
  }
}

LogicalResult PmapOutliner::checkCallees() {
  /// A call to look into, and the call in the body that leads to it.
  struct Reached {
    func::CallOp root, call;
    func::FuncOp callee;
  };
  SmallVector<Reached> worklist;
  llvm::SmallPtrSet<Operation *, 8> visited;
  auto addCalls = [&](Operation *scope, func::CallOp root) {
    scope->walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && visited.insert(callee).second)
        worklist.push_back({root ? root : call, call, callee});
    });
  };
  addCalls(device, nullptr);
  while (!worklist.empty()) {
    auto [root, call, callee] = worklist.pop_back_val();
    Operation *pmap = nullptr;
    callee.walk([&](Operation *op) {
      if (!pmap && isa<PmapOp, LaunchOp>(op))
        pmap = op;
    });
    if (!pmap) {
      addCalls(callee, root);
      continue;
    }
    // Located at the call in the body, which the user must change.
    InFlightDiagnostic diag =
        root.emitError()
        << "calls @" << root.getCallee()
        << " from inside an 'spmd.pmap', and that function runs a pmap "
           "of its own; write the inner pmap directly in the body (pcc "
           "does not inline calls into pmaps yet)";
    if (call != root)
      diag.attachNote(call.getLoc())
          << "through this call of @" << callee.getSymName();
    diag.attachNote(pmap->getLoc()) << "the inner pmap";
    return diag;
  }
  return success();
}

void PmapOutliner::writeOutputs(OpBuilder &builder, ValueRange yielded,
                                ValueRange outputs) {
  if (yielded.empty())
    return;
  // Each tensor output is read as a tensor at the entry, this device's part
  // inserted into it, and the whole stored back into the output at the end.
  // Bufferization then sees every write into an output as a tensor
  // insertion, so that eliminate-empty-tensors can have the body compute
  // straight into its result slices, and One-Shot Bufferize can tell when
  // that would overwrite a value still read (one that is both yielded and
  // computed on, say); stores straight into the output buffer would hide
  // those writes from it. The insertions and the final store bufferize in
  // place: nothing is copied.
  OpBuilder entry = OpBuilder::atBlockBegin(&device.getBody().front());
  SmallVector<Value> wholes;
  for (auto [value, output] : llvm::zip(yielded, outputs)) {
    if (!isa<RankedTensorType>(value.getType())) {
      wholes.push_back(Value());
      continue;
    }
    auto type = cast<MemRefType>(output.getType());
    wholes.push_back(bufferization::ToTensorOp::create(
        entry, loc,
        RankedTensorType::get(type.getShape(), type.getElementType()), output,
        /*restrict=*/true, /*writable=*/true));
  }

  // Devices that differ only in inner coordinates computed the same values;
  // the one with inner coordinates 0 writes them.
  scf::IfOp ifOp;
  if (axes.size() > 1) {
    Value innerIndex =
        AxisIndexOp::create(builder, loc, builder.getIndexType(),
                            builder.getArrayAttr(ArrayRef(axes).drop_front()));
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value isWriter = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, innerIndex, zero);
    SmallVector<Type> types;
    for (Value whole : wholes)
      if (whole)
        types.push_back(whole.getType());
    ifOp = scf::IfOp::create(builder, loc, types, isWriter,
                             /*withElseRegion=*/true);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  SmallVector<Value> written;
  for (auto [value, output, whole] : llvm::zip(yielded, outputs, wholes)) {
    if (!whole) {
      memref::StoreOp::create(builder, loc, value, output, outerIndex);
      continue;
    }
    auto type = cast<RankedTensorType>(whole.getType());
    // A result with no elements has nothing to write.
    if (type.getNumElements() == 0) {
      written.push_back(whole);
      continue;
    }
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes{builder.getIndexAttr(1)};
    SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
    offsets[0] = outerIndex;
    for (int64_t size : type.getShape().drop_front())
      sizes.push_back(builder.getIndexAttr(size));
    written.push_back(tensor::InsertSliceOp::create(builder, loc, value, whole,
                                                    offsets, sizes, strides));
  }
  if (ifOp) {
    // (Without results, the if's blocks end in implicit yields.)
    if (ifOp.getNumResults() != 0) {
      scf::YieldOp::create(builder, loc, written);
      builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
      SmallVector<Value> unchanged(llvm::make_filter_range(
          wholes, [](Value whole) { return bool(whole); }));
      scf::YieldOp::create(builder, loc, unchanged);
    }
    builder.setInsertionPointAfter(ifOp);
    written.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  unsigned next = 0;
  for (auto [output, whole] : llvm::zip(outputs, wholes)) {
    if (!whole)
      continue;
    auto materialize = bufferization::MaterializeInDestinationOp::create(
        builder, loc, written[next++], output);
    materialize.setRestrict(true);
    materialize.setWritable(true);
  }
}

namespace {
struct PCCOutlinePmapsPass
    : public pcc::impl::PCCOutlinePmapsBase<PCCOutlinePmapsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<PmapOp> roots;
    module.walk([&](PmapOp pmap) {
      if (!pmap->getParentOfType<PmapOp>())
        roots.push_back(pmap);
    });
    for (PmapOp root : roots)
      if (failed(PmapOutliner(root, symbols).run()))
        return signalPassFailure();
  }
};
} // namespace
