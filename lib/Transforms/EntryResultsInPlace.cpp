//===- EntryResultsInPlace.cpp - results straight into the caller's buffers ===//
//
// After one-shot bufferization the entry wrapper (pcc-entry-abi) computes
// each result into a buffer of its own and copies it into the caller's
// out-parameter. Where nothing reads that buffer after the copy, the program
// computes into the out-parameter instead, and the copy goes. Then each
// pmap launch that writes an out-parameter, and nothing else reads it, is
// marked (spmd.launch's returned_outputs).
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCENTRYRESULTSINPLACE
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {

/// Follows the out-parameter `out` of the entry wrapper down the calls that
/// pass it on, each its value's only use, to functions that have only that
/// caller (`uses`: the uses of each symbol); marks the output of the launch
/// that is then its only use.
void markReturnedOutput(Value out, ModuleOp module,
                        const llvm::DenseMap<StringAttr, unsigned> &uses) {
  for (;;) {
    if (!out.hasOneUse())
      return;
    OpOperand &use = *out.getUses().begin();
    if (auto launch = dyn_cast<pcc::spmd::LaunchOp>(use.getOwner())) {
      if (!launch.isDpsInit(&use))
        return;
      size_t outputs = launch.getOutputs().size();
      size_t index = use.getOperandNumber() - launch.getInputs().size();
      SmallVector<bool> flags(outputs, false);
      if (auto old = launch.getReturnedOutputs())
        flags.assign(old->begin(), old->end());
      flags[index] = true;
      launch.setReturnedOutputs(flags);
      return;
    }
    auto call = dyn_cast<func::CallOp>(use.getOwner());
    if (!call)
      return;
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal() ||
        uses.lookup(call.getCalleeAttr().getAttr()) != 1)
      return;
    out = callee.getArgument(use.getOperandNumber());
  }
}

struct PCCEntryResultsInPlacePass
    : public pcc::impl::PCCEntryResultsInPlaceBase<PCCEntryResultsInPlacePass> {
  void runOnOperation() override {
    auto wrapper =
        getOperation().lookupSymbol<func::FuncOp>(pcc::kEntryWrapperName);
    if (!wrapper || wrapper.isExternal())
      return;
    Block &body = wrapper.getBody().front();
    SmallVector<memref::CopyOp> copies(body.getOps<memref::CopyOp>());
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      if (!out || out.getOwner() != &body || !out.hasOneUse() || !alloc ||
          alloc->getBlock() != &body || alloc.getType() != out.getType())
        continue;
      // Nothing may read the buffer after the copy.
      if (!llvm::all_of(alloc->getUsers(), [&](Operation *user) {
            return user == copy || (user->getBlock() == &body &&
                                    user->isBeforeInBlock(copy));
          }))
        continue;
      copy.erase();
      alloc.replaceAllUsesWith(out);
      alloc.erase();
    }
    // Only out-parameters can reach a launch's outputs: the arguments are
    // read-only.
    llvm::DenseMap<StringAttr, unsigned> uses;
    if (auto all = SymbolTable::getSymbolUses(&getOperation().getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *all)
        ++uses[use.getSymbolRef().getRootReference()];
    for (BlockArgument out : body.getArguments())
      markReturnedOutput(out, getOperation(), uses);
  }
};
} // namespace
