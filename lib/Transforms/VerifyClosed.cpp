//===- VerifyClosed.cpp - programs run only their own code ---------------===//
//
// pcc JIT-runs user programs in its own process. This pass keeps them
// closed: on input, only the dialects of SPEC §1 and only defined
// functions; after lowering, only calls into the pcc runtime and the
// allocator. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCVERIFYCLOSED
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The dialects a program may use (SPEC §1).
static constexpr llvm::StringLiteral kInputDialects[] = {
    "builtin", "func", "arith",         "math", "tensor",
    "linalg",  "scf",  "bufferization", "spmd"};

/// Whether the lowered program may call the external function `name`: the
/// allocator and the entry points of pcc_runtime.h that the lowering emits.
static bool isAllowedExternal(StringRef name) {
  return name == "malloc" || name == "free" || name == "aligned_alloc" ||
         name == "pcc_launch" || name.starts_with("_mlir_ciface_pcc_mlir_");
}

static LogicalResult verifyInput(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  if (!llvm::is_contained(kInputDialects, dialect))
    return op->emitError()
           << "'" << op->getName()
           << "' is not allowed in pcc programs: they may use the func, "
              "arith, math, tensor, linalg, scf, bufferization and spmd "
              "dialects";
  if (auto function = dyn_cast<func::FuncOp>(op);
      function && function.isExternal())
    return op->emitError()
           << "function @" << function.getSymName()
           << " is declared but not defined; pcc runs only code that the "
              "program defines, so give it a body";
  return success();
}

static LogicalResult verifyLowered(Operation *op) {
  if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
      function && function.isExternal() &&
      !isAllowedExternal(function.getSymName()))
    return op->emitError() << "the lowered program calls the external "
                              "function @"
                           << function.getSymName()
                           << ", which is neither the pcc runtime nor the "
                              "allocator";
  if (isa<LLVM::InlineAsmOp>(op))
    return op->emitError() << "the lowered program contains inline assembly";
  if (auto global = dyn_cast<LLVM::GlobalOp>(op);
      global && !global.getValueOrNull() && !global.getInitializerBlock())
    return op->emitError() << "the lowered program refers to the external "
                              "global @"
                           << global.getSymName();
  return success();
}

namespace {
struct PCCVerifyClosedPass
    : public pcc::impl::PCCVerifyClosedBase<PCCVerifyClosedPass> {
  using PCCVerifyClosedBase::PCCVerifyClosedBase;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (mlir::failed(lowered ? verifyLowered(op) : verifyInput(op)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
