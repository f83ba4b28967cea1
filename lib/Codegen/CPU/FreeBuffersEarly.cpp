//===- FreeBuffersEarly.cpp - each buffer freed after its last use --------===//
//
// Ownership-based deallocation frees a block's buffers together, at the
// block's end: in a pmap body of many steps, every temporary then lives
// until the body returns, and the one dealloc op listing them all makes
// later passes cost time in the square of their number. This pass frees
// each buffer that the block certainly owns right after the last op that
// uses it or a view of it. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace pcc {
#define GEN_PASS_DEF_PCCFREEBUFFERSEARLY
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The last op of `block` that uses `buffer` or a value that may alias it
/// (any memref an op makes from it, any memref a region yields); null if
/// none does, and failure if an alias leaves the block (a branch argument,
/// a result of the block's function).
static FailureOr<Operation *> findLastUse(Value buffer, Block &block,
                                          ArrayRef<Operation *> ignored) {
  Operation *last = nullptr;
  SmallVector<Value> aliases = {buffer};
  DenseSet<Value> seen = {buffer};
  auto addAliases = [&](Operation *op) {
    for (Value result : op->getResults())
      if (isa<BaseMemRefType>(result.getType()) && seen.insert(result).second)
        aliases.push_back(result);
  };
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (llvm::is_contained(ignored, user))
        continue;
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor || (user->hasTrait<OpTrait::IsTerminator>() &&
                        user->getBlock() == &block))
        return failure();
      addAliases(user);
      // A region that yields the alias makes its op's results aliases.
      if (user->hasTrait<OpTrait::IsTerminator>())
        for (Operation *op = user->getParentOp(); op != ancestor->getParentOp();
             op = op->getParentOp())
          addAliases(op);
      if (!last || last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

namespace {
struct PCCFreeBuffersEarlyPass
    : public pcc::impl::PCCFreeBuffersEarlyBase<PCCFreeBuffersEarlyPass> {
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation().walk([&](bufferization::DeallocOp op) {
      if (op.getRetained().empty())
        deallocs.push_back(op);
    });
    for (bufferization::DeallocOp dealloc : deallocs) {
      Block &block = *dealloc->getBlock();
      SmallVector<Value> keptBuffers, keptConditions;
      for (auto [buffer, condition] :
           llvm::zip(dealloc.getMemrefs(), dealloc.getConditions())) {
        // Ownership-based deallocation names an allocation by its base
        // buffer (memref.extract_strided_metadata), which canonicalization
        // would fold away; this pass runs first, so that no rewrite driver
        // sees the one dealloc op of a long body.
        Value owned = buffer;
        auto metadata =
            buffer.getDefiningOp<memref::ExtractStridedMetadataOp>();
        if (metadata && metadata->hasOneUse() &&
            metadata->getBlock() == &block)
          owned = metadata.getSource();
        else
          metadata = nullptr;
        auto alloc = owned.getDefiningOp<memref::AllocOp>();
        FailureOr<Operation *> last = failure();
        if (alloc && alloc->getBlock() == &block &&
            matchPattern(condition, m_One()))
          last = findLastUse(owned, block, {dealloc, metadata});
        if (failed(last)) {
          keptBuffers.push_back(buffer);
          keptConditions.push_back(condition);
          continue;
        }
        OpBuilder builder(&getContext());
        builder.setInsertionPointAfter(*last ? *last : alloc.getOperation());
        memref::DeallocOp::create(builder, dealloc.getLoc(), owned);
      }
      if (keptBuffers.size() == dealloc.getMemrefs().size())
        continue;
      if (!keptBuffers.empty()) {
        OpBuilder builder(dealloc);
        bufferization::DeallocOp::create(builder, dealloc.getLoc(),
                                         keptBuffers, keptConditions,
                                         ValueRange());
      }
      dealloc.erase();
    }
  }
};
} // namespace
