//===- LowerRuntimeCalls.cpp - spmd.runtime_call on buffers to func.call --===//
//
// The last step of a collective's lowering: a bufferized spmd.runtime_call
// becomes a call of a small function of the program, one per callee and
// signature, that passes the buffers on to the runtime through MLIR's C
// interface as unranked memrefs. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERRUNTIMECALLS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

/// `type` with every size, stride and the offset dynamic (the same
/// descriptor in LLVM, so the cast is free), so that calls on buffers of
/// different shapes share one stub; other types as they are.
static Type generalize(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.isStrided())
    return type;
  int64_t rank = memref.getRank();
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(type.getContext(),
                                       ShapedType::kDynamic, dynamic);
  return MemRefType::get(dynamic, memref.getElementType(), layout,
                         memref.getMemorySpace());
}

/// `type` as the C interface takes it: a memref as an unranked memref.
static Type toInterfaceType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return type;
  return UnrankedMemRefType::get(memref.getElementType(),
                                 memref.getMemorySpace());
}

/// Casts each memref among `values` to the type at the same place in
/// `types`.
static SmallVector<Value> castAll(OpBuilder &builder, Location loc,
                                  ValueRange values, TypeRange types) {
  SmallVector<Value> cast;
  for (auto [value, type] : llvm::zip(values, types))
    cast.push_back(value.getType() == type
                       ? value
                       : memref::CastOp::create(builder, loc, type, value)
                             .getResult());
  return cast;
}

namespace {
struct PCCLowerRuntimeCallsPass
    : public pcc::impl::PCCLowerRuntimeCallsBase<PCCLowerRuntimeCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<RuntimeCallOp> calls;
    module.walk([&](RuntimeCallOp call) { calls.push_back(call); });
    for (RuntimeCallOp call : calls) {
      if (!call.hasPureBufferSemantics()) {
        call.emitOpError("must be bufferized before it is lowered to a call");
        return signalPassFailure();
      }
      SmallVector<Type> types;
      for (Type type : call->getOperandTypes())
        types.push_back(generalize(type));
      func::FuncOp stub = getOrCreateStub(symbols, call, types);
      if (!stub)
        return signalPassFailure();
      OpBuilder builder(call);
      func::CallOp::create(
          builder, call.getLoc(), stub,
          castAll(builder, call.getLoc(), call->getOperands(), types));
      call.erase();
    }
  }

  /// The function that calls the runtime's `call.getCallee()` on operands
  /// of `types`, made on first use: its descriptors for the C interface are
  /// stack slots of its own frame, freed when it returns (a call in a loop
  /// does not grow the stack), and it stays a call, not inlined, so that a
  /// program of many collectives is not mostly descriptors. Null (after an
  /// error) if the callee exists with other arguments.
  func::FuncOp getOrCreateStub(SymbolTable &symbols, RuntimeCallOp call,
                               ArrayRef<Type> types) {
    StringRef callee = call.getCallee();
    auto type = FunctionType::get(&getContext(), types, {});
    auto &signatures = stubs[callee];
    if (func::FuncOp stub = signatures.lookup(type))
      return stub;
    SmallVector<Type> interfaceTypes;
    for (Type type : types)
      interfaceTypes.push_back(toInterfaceType(type));
    func::FuncOp declaration = getOrDeclare(symbols, callee, interfaceTypes);
    if (!declaration) {
      call.emitOpError() << "calls @" << callee
                         << " with arguments that do not match its "
                            "earlier declaration";
      return {};
    }
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    auto stub = func::FuncOp::create(
        builder, loc,
        ("_pcc_call_" + callee + "_" + Twine(signatures.size())).str(), type);
    signatures[type] = stub;
    stub.setPrivate();
    stub->setAttr("passthrough", builder.getArrayAttr(
                                     {builder.getStringAttr("noinline")}));
    symbols.insert(stub);
    Block *body = stub.addEntryBlock();
    builder.setInsertionPointToStart(body);
    func::CallOp::create(
        builder, loc, declaration,
        castAll(builder, loc, body->getArguments(), interfaceTypes));
    func::ReturnOp::create(builder, loc);
    return stub;
  }

  /// The private declaration of `name`, with MLIR's C interface, made on
  /// first use; null if one exists with other argument types.
  func::FuncOp getOrDeclare(SymbolTable &symbols, StringRef name,
                            TypeRange argTypes) {
    ModuleOp module = getOperation();
    auto type = FunctionType::get(&getContext(), argTypes, {});
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing.getFunctionType() == type ? existing : func::FuncOp();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto declaration = func::FuncOp::create(builder, module.getLoc(), name, type);
    declaration.setPrivate();
    declaration->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
    symbols.insert(declaration);
    return declaration;
  }

  /// The stubs made so far, by callee and operand types.
  llvm::StringMap<DenseMap<FunctionType, func::FuncOp>> stubs;
};
} // namespace
