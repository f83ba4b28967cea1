//===- LowerRuntimeCalls.cpp - spmd.runtime_call on buffers to func.call --===//
//
// The last step of a collective's lowering: a bufferized spmd.runtime_call
// becomes a call of the runtime function, with each buffer passed as a
// pointer to its first element. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERRUNTIMECALLS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;

/// A pointer to the first element of `buffer`: its aligned pointer plus its
/// offset (the runtime takes contiguous buffers only).
static Value getFirstElement(OpBuilder &builder, Location loc,
                             TypedValue<MemRefType> buffer) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
  MemRefType type = buffer.getType();
  auto [strides, offset] = type.getStridesAndOffset();
  if (offset != 0) {
    Value elements =
        offset == ShapedType::kDynamic
            ? memref::ExtractStridedMetadataOp::create(builder, loc, buffer)
                  .getOffset()
            : arith::ConstantIndexOp::create(builder, loc, offset).getResult();
    // (An i1 takes a byte.)
    int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
    address = arith::AddIOp::create(
        builder, loc, address,
        arith::MulIOp::create(
            builder, loc, elements,
            arith::ConstantIndexOp::create(builder, loc, bytes)));
  }
  Value integer =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), integer);
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
      OpBuilder builder(call);
      SmallVector<Value> arguments;
      for (Value operand : call->getOperands())
        arguments.push_back(
            isa<MemRefType>(operand.getType())
                ? getFirstElement(builder, call.getLoc(),
                                  cast<TypedValue<MemRefType>>(operand))
                : operand);
      func::FuncOp callee =
          getOrDeclare(symbols, call.getCallee(), ValueRange(arguments));
      if (!callee) {
        call.emitOpError() << "calls @" << call.getCallee()
                           << " with arguments that do not match its "
                              "earlier declaration";
        return signalPassFailure();
      }
      func::CallOp::create(builder, call.getLoc(), callee, arguments);
      call.erase();
    }
  }

  /// The private declaration of `name` taking `arguments`, made on first
  /// use; null if one exists with other argument types.
  func::FuncOp getOrDeclare(SymbolTable &symbols, StringRef name,
                            ValueRange arguments) {
    ModuleOp module = getOperation();
    auto type = FunctionType::get(&getContext(), arguments.getTypes(), {});
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing.getFunctionType() == type ? existing : func::FuncOp();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto declaration =
        func::FuncOp::create(builder, module.getLoc(), name, type);
    declaration.setPrivate();
    symbols.insert(declaration);
    return declaration;
  }
};
} // namespace
