//===- HostString.cpp - strings that only the host runtime reads ----------===//

#include "HostString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

std::string pcc::formatLocation(Location loc) {
  std::string text;
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    llvm::raw_string_ostream(text)
        << file.getFilename().getValue() << ":" << file.getLine() << ":"
        << file.getColumn() << ": ";
  return text;
}

void pcc::callCheckFailed(OpBuilder &builder, SymbolTable &symbols,
                          llvm::StringMap<memref::GlobalOp> &messages,
                          Location loc, StringRef text, ValueRange values) {
  auto module = cast<ModuleOp>(symbols.getOp());
  memref::GlobalOp &global = messages[text];
  if (!global) {
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    global = createHostString(moduleBuilder, symbols, loc, "_pcc_check", text);
  }
  MemRefType type = global.getType();
  Value message =
      memref::GetGlobalOp::create(builder, loc, type, global.getSymName());
  Value unranked = memref::CastOp::create(
      builder, loc, UnrankedMemRefType::get(type.getElementType(), 0), message);
  assert(values.size() <= kCheckValues && "too many values for a check");
  SmallVector<Value, 1 + kCheckValues> operands = {unranked};
  for (unsigned i = 0; i < kCheckValues; ++i) {
    Value value = i < values.size()
                      ? values[i]
                      : arith::ConstantIntOp::create(builder, loc, 0, 64);
    if (value.getType().isIndex())
      value =
          arith::IndexCastOp::create(builder, loc, builder.getI64Type(), value);
    operands.push_back(value);
  }
  func::FuncOp function = pcc::declareRuntimeFunction(
      symbols, "pcc_mlir_check_failed",
      FunctionType::get(builder.getContext(), TypeRange(operands), {}));
  func::CallOp::create(builder, loc, function, operands);
}

func::FuncOp pcc::declareRuntimeFunction(SymbolTable &symbols, StringRef name,
                                         FunctionType type) {
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  auto module = cast<ModuleOp>(symbols.getOp());
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(builder, module.getLoc(), name, type);
  function.setPrivate();
  function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  symbols.insert(function);
  return function;
}
