//===- GuardRecursion.cpp - stack checks where functions may recurse ------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "pcc/Transforms/Passes.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SCCIterator.h"

namespace pcc {
#define GEN_PASS_DEF_PCCGUARDRECURSION
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The program's functions that may recurse: those in a cycle of direct
/// calls, and those that func.call_indirect may reach.
static llvm::SetVector<func::FuncOp> findRecursiveFunctions(ModuleOp module,
                                                            CallGraph &graph) {
  llvm::SetVector<func::FuncOp> recursive;
  auto add = [&](Operation *op) {
    auto function = dyn_cast_or_null<func::FuncOp>(op);
    if (function && function->getParentOp() == module && !function.isExternal())
      recursive.insert(function);
  };
  for (auto scc = llvm::scc_begin(static_cast<const CallGraph *>(&graph));
       !scc.isAtEnd(); ++scc)
    if (scc.hasCycle())
      for (const CallGraphNode *node : *scc)
        if (!node->isExternal())
          add(node->getCallableRegion()->getParentOp());
  SymbolTable symbols(module);
  module.walk([&](func::ConstantOp constant) {
    add(symbols.lookup(constant.getValue()));
  });
  return recursive;
}

namespace {
struct PCCGuardRecursionPass
    : public pcc::impl::PCCGuardRecursionBase<PCCGuardRecursionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::SetVector<func::FuncOp> recursive =
        findRecursiveFunctions(module, getAnalysis<CallGraph>());
    if (recursive.empty())
      return;
    SymbolTable symbols(module);
    func::FuncOp check;
    for (func::FuncOp function : recursive) {
      Location loc = function.getLoc();
      // The program's name for it: on the cuda backend, functions have
      // been renamed already.
      std::string name = pcc::formatLocation(loc) + "@" +
                         pcc::getUserSymbolName(function.getSymName()).str();
      OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
      memref::GlobalOp global = pcc::createHostString(
          moduleBuilder, symbols, loc, "_pcc_recursive_function", name);
      OpBuilder builder = OpBuilder::atBlockBegin(&function.getBody().front());
      MemRefType type = global.getType();
      Value text =
          memref::GetGlobalOp::create(builder, loc, type, global.getSymName());
      Value unranked = memref::CastOp::create(
          builder, loc, UnrankedMemRefType::get(type.getElementType(), 0),
          text);
      if (!check)
        check = pcc::declareRuntimeFunction(
            symbols, "pcc_mlir_check_stack",
            FunctionType::get(&getContext(), unranked.getType(), {}));
      func::CallOp::create(builder, loc, check, unranked);
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
