//===- RenameUserSymbols.cpp - the program's names apart from libraries' ---===//
//
// Prefixes the program's own functions and globals with `u.`, so that no
// call that generated code makes by name (libm, libc, compiler-rt) can reach
// them. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCRENAMEUSERSYMBOLS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCRenameUserSymbolsPass
    : public pcc::impl::PCCRenameUserSymbolsBase<PCCRenameUserSymbolsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The program's definitions: not pcc's (reserved names, device
    // functions) and not declarations, which name what the runtime defines.
    SmallVector<std::pair<Operation *, StringAttr>> renamed;
    for (Operation &op : module.getOps()) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (!name || pcc::isReservedName(name.getValue()) ||
          op.hasAttr(pcc::spmd::kGridSizesAttrName))
        continue;
      auto function = dyn_cast<func::FuncOp>(op);
      if (!(function && !function.isExternal()) &&
          !isa<memref::GlobalOp>(op))
        continue;
      renamed.push_back(
          {&op, StringAttr::get(&getContext(),
                               pcc::kUserSymbolPrefix + name.getValue())});
    }
    // Through names no program has (reserved ones) first: "f" becomes
    // "u.f" while the program may still define "u.f" (which becomes
    // "u.u.f").
    for (auto [index, entry] : llvm::enumerate(renamed)) {
      auto temporary = StringAttr::get(
          &getContext(), "_pcc_renaming_" + std::to_string(index));
      if (failed(SymbolTable::replaceAllSymbolUses(entry.first, temporary,
                                                   module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(entry.first, temporary);
    }
    for (auto [op, name] : renamed) {
      if (failed(SymbolTable::replaceAllSymbolUses(op, name, module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(op, name);
    }
  }
};
} // namespace
