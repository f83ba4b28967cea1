//===- NameKernels.cpp - kernel names that PTX accepts --------------------===//
//
// Outlined kernels are named after their function, which may hold a `.`
// (pcc-rename-user-symbols' `u.` prefix); see the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCNAMEKERNELS
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// `op`'s name with every `.` replaced, unique in `table`.
static StringAttr getValidName(Operation *op, SymbolTable &table) {
  std::string name = SymbolTable::getSymbolName(op).str();
  if (name.find('.') == std::string::npos)
    return {};
  std::replace(name.begin(), name.end(), '.', '_');
  std::string unique = name;
  for (int suffix = 0; table.lookup(unique); ++suffix)
    unique = name + "_" + std::to_string(suffix);
  return StringAttr::get(op->getContext(), unique);
}

namespace {
struct PCCNameKernelsPass
    : public pcc::impl::PCCNameKernelsBase<PCCNameKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable moduleTable(module);
    for (auto kernels : llvm::make_early_inc_range(
             module.getOps<gpu::GPUModuleOp>())) {
      // Launches name a kernel as @module::@kernel, from the outer module.
      SymbolTable kernelTable(kernels);
      for (auto kernel : kernels.getOps<gpu::GPUFuncOp>())
        if (StringAttr name = getValidName(kernel, kernelTable)) {
          if (failed(SymbolTable::replaceAllSymbolUses(kernel, name, module)))
            return signalPassFailure();
          SymbolTable::setSymbolName(kernel, name);
        }
      if (StringAttr name = getValidName(kernels, moduleTable))
        if (failed(moduleTable.rename(kernels, name)))
          return signalPassFailure();
    }
  }
};
} // namespace
