//===- LowerRuntimeChecks.cpp - failed checks as runtime errors ----------===//
//
// Each cf.assert of generate-runtime-verification becomes a call of the
// runtime's pcc_mlir_check_failed under the negated condition, with a
// located message; see the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "HostString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERRUNTIMECHECKS
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The op an assertion guards: the first op after it with the same location
/// that is not a check.
static Operation *getGuardedOp(cf::AssertOp assertion) {
  for (Operation *op = assertion->getNextNode(); op; op = op->getNextNode())
    if (op->getLoc() == assertion.getLoc() && !isa<cf::AssertOp>(op) &&
        op->getName().getDialectNamespace() != "arith")
      return op;
  return nullptr;
}

/// "prog.mlir:7:10: 'tensor.extract_slice': out-of-bounds access" from the
/// assertion's location, the op it guards, and the line of
/// generate-runtime-verification's message that says what failed.
static std::string describeFailure(cf::AssertOp assertion, Operation *op) {
  std::string text = pcc::formatLocation(assertion.getLoc());
  llvm::raw_string_ostream os(text);
  if (op)
    os << "'" << op->getName() << "': ";
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
  using PCCLowerRuntimeChecksBase::PCCLowerRuntimeChecksBase;

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
      Operation *guarded = getGuardedOp(assertion);
      // pcc-generate-runtime-checks checks these, naming the values; future
      // kernels check their accesses themselves.
      if (isa_and_nonnull<tensor::ExtractOp, tensor::InsertOp,
                          tensor::ExtractSliceOp>(guarded) ||
          (!kernelBodies && assertion->getParentOfType<linalg::LinalgOp>())) {
        assertion.erase();
        continue;
      }
      Location loc = assertion.getLoc();
      OpBuilder builder(assertion);
      Value failed = arith::XOrIOp::create(
          builder, loc, assertion.getArg(),
          arith::ConstantIntOp::create(builder, loc, 1, 1));
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange(), failed,
                                    /*withElseRegion=*/false);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      pcc::callCheckFailed(builder, symbols, messages, loc,
                           describeFailure(assertion, guarded));
      assertion.erase();
    }
  }
};
} // namespace
