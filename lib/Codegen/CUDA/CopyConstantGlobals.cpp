//===- CopyConstantGlobals.cpp - constants in buffers GPUs can reach ------===//
//
// For the cuda backend: every read of a constant memref.global inside a
// function becomes a read of a fresh buffer filled from the global on the
// host, since kernels cannot read the host executable's data (buffers come
// from managed memory in the cuda pipeline).
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"
#include "pcc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCOPYCONSTANTGLOBALS
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCopyConstantGlobalsPass
    : public pcc::impl::PCCCopyConstantGlobalsBase<PCCCopyConstantGlobalsPass> {
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    getOperation()->walk([&](memref::GetGlobalOp get) {
      auto global = symbols.lookup<memref::GlobalOp>(get.getName());
      // Only bufferized constants: they are never written, so a copy per
      // read is the same value. Those only the host runtime reads (the
      // collectives' site strings) stay where they are.
      if (!global || !global.getConstant() ||
          global->hasAttr(pcc::kHostOnlyAttrName))
        return;
      OpBuilder builder(get->getContext());
      builder.setInsertionPointAfter(get);
      auto type = cast<MemRefType>(get.getType());
      Value copy = memref::AllocOp::create(builder, get.getLoc(), type);
      get.getResult().replaceAllUsesWith(copy);
      memref::CopyOp::create(builder, get.getLoc(), get.getResult(), copy);
    });
  }
};
} // namespace
