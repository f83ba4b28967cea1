//===- EntryABI.cpp - a C ABI of memrefs for the entry function ----------===//
//
// Wraps the entry function (default @main) of a program on tensors in
// @_pcc_entry, the function the pcc driver calls through
// `_mlir_ciface__pcc_entry`: every argument arrives as a memref (rank 0 for a
// scalar) and every result is written into a memref out-parameter that the
// caller allocates, so the caller owns all buffers and passes each value as a
// pointer to a memref descriptor. The wrapper reads the arguments with
// `bufferization.to_tensor restrict` / `memref.load`, calls the entry and
// stores the results with `bufferization.materialize_in_destination` /
// `memref.store`; after one-shot bufferization, pcc-entry-results-in-place
// makes the program write straight into the caller's buffers.
// The entry becomes private.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCENTRYABI
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {

/// Element types a value crossing the entry boundary may have (wider than
/// the dialect's device types; the driver then checks what .npy holds):
/// signless integers (i1 included), floats and index.
bool canCrossBoundary(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless();
  return isa<FloatType, IndexType>(type);
}

/// The memref through which a value of `type` crosses the boundary, or null
/// if `type` cannot cross it.
MemRefType getBoundaryMemRefType(Type type) {
  if (canCrossBoundary(type))
    return MemRefType::get({}, type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding() ||
      !canCrossBoundary(tensor.getElementType()))
    return nullptr;
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// Explains why `type` cannot cross the boundary.
std::string describeUnsupported(Type type) {
  std::string message;
  llvm::raw_string_ostream os(message);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && !tensor.hasStaticShape())
    os << "has a dynamic shape (" << type
       << "); the entry function needs static shapes";
  else if (tensor && tensor.getEncoding())
    os << "has a tensor encoding (" << type << "), which is not supported";
  else
    os << "has type " << type
       << ", but only statically shaped ranked tensors and scalars of "
          "integer, float or index type are supported";
  return message;
}

struct PCCEntryABIPass : public pcc::impl::PCCEntryABIBase<PCCEntryABIPass> {
  using Base::Base;

  void runOnOperation() override;
};

void PCCEntryABIPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto entryFunc = module.lookupSymbol<func::FuncOp>(entry);
  if (!entryFunc) {
    module.emitError() << "entry function @" << entry << " not found";
    return signalPassFailure();
  }
  if (entryFunc.isExternal()) {
    entryFunc.emitError() << "entry function @" << entry << " must have a body";
    return signalPassFailure();
  }
  if (module.lookupSymbol(pcc::kEntryWrapperName)) {
    module.lookupSymbol(pcc::kEntryWrapperName)->emitError()
        << "the symbol @" << pcc::kEntryWrapperName
        << " is reserved for the entry wrapper";
    return signalPassFailure();
  }

  FunctionType entryType = entryFunc.getFunctionType();
  SmallVector<Type> wrapperInputs;
  bool failed = false;
  for (auto [i, type] : llvm::enumerate(entryType.getInputs())) {
    MemRefType memref = getBoundaryMemRefType(type);
    if (!memref) {
      entryFunc.emitError() << "argument #" << i << " of entry function @"
                            << entry << " " << describeUnsupported(type);
      failed = true;
    }
    wrapperInputs.push_back(memref);
  }
  for (auto [i, type] : llvm::enumerate(entryType.getResults())) {
    MemRefType memref = getBoundaryMemRefType(type);
    if (!memref) {
      entryFunc.emitError() << "result #" << i << " of entry function @"
                            << entry << " " << describeUnsupported(type);
      failed = true;
    }
    wrapperInputs.push_back(memref);
  }
  if (failed)
    return signalPassFailure();

  Location loc = entryFunc.getLoc();
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(entryFunc);
  auto wrapper = func::FuncOp::create(
      builder, loc, pcc::kEntryWrapperName,
      builder.getFunctionType(wrapperInputs, /*results=*/{}));
  // LLVM::LLVMDialect::getEmitCWrapperAttrName(), spelled out to keep the
  // LLVM dialect out of this library.
  wrapper->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  Block *body = wrapper.addEntryBlock();
  builder.setInsertionPointToStart(body);

  unsigned numInputs = entryType.getNumInputs();
  SmallVector<Value> callOperands;
  for (auto [type, memref] :
       llvm::zip(entryType.getInputs(), body->getArguments())) {
    if (isa<RankedTensorType>(type))
      callOperands.push_back(bufferization::ToTensorOp::create(
          builder, loc, type, memref, /*restrict=*/true, /*writable=*/false));
    else
      callOperands.push_back(
          memref::LoadOp::create(builder, loc, memref, ValueRange()));
  }
  auto call = func::CallOp::create(builder, loc, entryFunc, callOperands);
  for (auto [result, out] : llvm::zip(
           call.getResults(), body->getArguments().drop_front(numInputs))) {
    if (isa<RankedTensorType>(result.getType()))
      bufferization::MaterializeInDestinationOp::create(
          builder, loc, /*result=*/Type(), result, out, /*restrict=*/true,
          /*writable=*/true);
    else
      memref::StoreOp::create(builder, loc, result, out, ValueRange());
  }
  func::ReturnOp::create(builder, loc);
  entryFunc.setPrivate();
}

} // namespace
