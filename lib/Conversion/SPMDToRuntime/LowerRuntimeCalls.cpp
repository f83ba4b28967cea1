//===- LowerRuntimeCalls.cpp - spmd.runtime_call on buffers to func.call --===//
//
// The last step of a collective's lowering: a bufferized spmd.runtime_call
// becomes a func.call through MLIR's C interface, buffers as unranked
// memrefs, inside a memref.alloca_scope that frees their descriptors' stack
// slots when the call returns. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERRUNTIMECALLS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

namespace {
struct PCCLowerRuntimeCallsPass
    : public pcc::impl::PCCLowerRuntimeCallsBase<PCCLowerRuntimeCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<RuntimeCallOp> calls;
    module.walk([&](RuntimeCallOp call) { calls.push_back(call); });
    // A buffer that several calls take and that is defined in its
    // function's entry block (the grid) is cast once, there: its
    // descriptor's slot is then static, not one per call. (Not a buffer of
    // one call, such as its call-site string: blocks that differ only in
    // such a value may later be merged, with the unranked value as a block
    // argument that the lowering to LLVM then leaves unconverted.)
    DenseMap<Value, Value> entryCasts;
    DenseMap<Value, int> callsTaking;
    for (RuntimeCallOp call : calls)
      for (Value operand : call->getOperands())
        ++callsTaking[operand];
    auto unranked = [](MemRefType type) {
      return UnrankedMemRefType::get(type.getElementType(),
                                     type.getMemorySpace());
    };
    for (RuntimeCallOp call : calls) {
      if (!call.hasPureBufferSemantics()) {
        call.emitOpError("must be bufferized before it is lowered to a call");
        return signalPassFailure();
      }
      OpBuilder builder(call);
      Location loc = call.getLoc();
      auto scope = memref::AllocaScopeOp::create(builder, loc, TypeRange());
      builder.setInsertionPointToStart(&scope.getBodyRegion().emplaceBlock());
      SmallVector<Value> args;
      for (Value operand : call->getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type) {
          args.push_back(operand);
          continue;
        }
        Block *block = operand.getParentBlock();
        if (!block->isEntryBlock() ||
            !isa<FunctionOpInterface>(block->getParentOp()) ||
            callsTaking[operand] < 2) {
          args.push_back(
              memref::CastOp::create(builder, loc, unranked(type), operand));
          continue;
        }
        Value &cast = entryCasts[operand];
        if (!cast) {
          OpBuilder entry = OpBuilder::atBlockBegin(block);
          if (Operation *def = operand.getDefiningOp())
            entry.setInsertionPointAfter(def);
          cast = memref::CastOp::create(entry, loc, unranked(type), operand);
        }
        args.push_back(cast);
      }
      func::FuncOp callee =
          getOrDeclare(symbols, call.getCallee(), ValueRange(args).getTypes());
      if (!callee) {
        call.emitOpError() << "calls @" << call.getCallee()
                           << " with arguments that do not match its "
                              "earlier declaration";
        return signalPassFailure();
      }
      func::CallOp::create(builder, loc, callee, args);
      memref::AllocaScopeReturnOp::create(builder, loc, ValueRange());
      call.erase();
    }
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
};
} // namespace
