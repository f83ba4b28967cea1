//===- EntryResultsInPlace.cpp - results straight into the caller's buffers ===//
//
// After one-shot bufferization the entry wrapper (pcc-entry-abi) computes
// each result into a buffer of its own and copies it into the caller's
// out-parameter. Where nothing reads that buffer after the copy, the program
// computes into the out-parameter instead, and the copy goes.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace pcc {
#define GEN_PASS_DEF_PCCENTRYRESULTSINPLACE
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
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
  }
};
} // namespace
