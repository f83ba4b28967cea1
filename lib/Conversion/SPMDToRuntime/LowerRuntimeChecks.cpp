//===- LowerRuntimeChecks.cpp - failed checks as runtime errors ----------===//
//
// Each cf.assert of generate-runtime-verification becomes a call of the
// runtime's pcc_mlir_check_failed under the negated condition, with a
// located message; see the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERRUNTIMECHECKS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// "prog.mlir:7:10: 'tensor.insert': out-of-bounds access" from the
/// assertion's location, the op it guards (the first op after it with the
/// same location that is not a check), and the line of
/// generate-runtime-verification's message that says what failed.
static std::string describeFailure(cf::AssertOp assertion) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(assertion.getLoc()))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  for (Operation *op = assertion->getNextNode(); op; op = op->getNextNode())
    if (op->getLoc() == assertion.getLoc() && !isa<cf::AssertOp>(op) &&
        op->getName().getDialectNamespace() != "arith") {
      os << "'" << op->getName() << "': ";
      break;
    }
  StringRef what = assertion.getMsg();
  size_t caret = what.find("^ ");
  if (caret != StringRef::npos)
    what = what.drop_front(caret + 2).split('\n').first;
  os << what;
  return text;
}

namespace {
struct PCCLowerRuntimeChecksPass
    : public pcc::impl::PCCLowerRuntimeChecksBase<PCCLowerRuntimeChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<cf::AssertOp> assertions;
    module.walk([&](cf::AssertOp assertion) {
      // Kernels cannot call the host runtime.
      auto function = assertion->getParentOfType<func::FuncOp>();
      if (!function || function->getParentOp() != module)
        return;
      assertions.push_back(assertion);
    });
    llvm::StringMap<memref::GlobalOp> messages;
    for (cf::AssertOp assertion : assertions) {
      Location loc = assertion.getLoc();
      std::string text = describeFailure(assertion);
      memref::GlobalOp &global = messages[text];
      if (!global) {
        OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
        global = pcc::createHostString(moduleBuilder, symbols, loc,
                                       "_pcc_check", text);
      }
      OpBuilder builder(assertion);
      Value failed = arith::XOrIOp::create(
          builder, loc, assertion.getArg(),
          arith::ConstantIntOp::create(builder, loc, 1, 1));
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange(), failed,
                                    /*withElseRegion=*/false);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      MemRefType type = global.getType();
      Value message =
          memref::GetGlobalOp::create(builder, loc, type, global.getSymName());
      Value unranked = memref::CastOp::create(
          builder, loc, UnrankedMemRefType::get(type.getElementType(), 0),
          message);
      func::CallOp::create(builder, loc, getDeclaration(symbols, unranked),
                           unranked);
      assertion.erase();
    }
  }

  /// `@pcc_mlir_check_failed`, declared with MLIR's C interface.
  func::FuncOp getDeclaration(SymbolTable &symbols, Value message) {
    StringRef name = "pcc_mlir_check_failed";
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing;
    ModuleOp module = getOperation();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto declaration = func::FuncOp::create(
        builder, module.getLoc(), name,
        FunctionType::get(&getContext(), message.getType(), {}));
    declaration.setPrivate();
    declaration->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
    symbols.insert(declaration);
    return declaration;
  }
};
} // namespace
