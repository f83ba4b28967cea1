//===- FuseElementwiseOps.cpp - elementwise chains in one loop ------------===//
//
// Gives each linalg op that overwrites its init a fresh one, fuses chains of
// elementwise generics with upstream's fusion where that changes no result
// and repeats no work, reads splat constants as scalars, and computes in
// place of an input that dies there. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace pcc {
#define GEN_PASS_DEF_PCCFUSEELEMENTWISEOPS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Whether the generic producing `fused` may be computed inside its
/// consumer: its one user, in the same block, reading each element once
/// (a broadcast would compute it again for every copy), with a payload that
/// touches no memory (it will run where the consumer runs). Its one result
/// must be read: a value computed and never read (another result, one the
/// consumer's payload ignores) would be dead once fused, and its index
/// checks, which run on the loops later, with it.
static bool mayFuse(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!producer || !consumer || producer->getNumResults() != 1 ||
      !producer->hasOneUse() || !consumer.payloadUsesValueFromOperand(fused) ||
      producer->getBlock() != consumer->getBlock() ||
      !consumer.getMatchingIndexingMap(fused).isPermutation() ||
      !linalg::areElementwiseOpsFusable(fused))
    return false;
  return !producer.getRegion()
              .walk([](Operation *op) {
                return isMemoryEffectFree(op) ? WalkResult::advance()
                                              : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Fuses into `consumer` the producers of its inputs, and theirs, while one
/// may be (mayFuse). Returns the op that then computes the consumer's
/// results.
static linalg::GenericOp fuseProducers(RewriterBase &rewriter,
                                       linalg::GenericOp consumer) {
  for (;;) {
    auto inputs = consumer.getDpsInputOperands();
    auto fusable = llvm::find_if(inputs, mayFuse);
    if (fusable == inputs.end())
      return consumer;
    Operation *producer = (*fusable)->get().getDefiningOp();
    rewriter.setInsertionPoint(consumer);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, *fusable);
    if (failed(fused))
      return consumer;
    for (auto [original, replacement] : fused->replacements)
      rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
        return use.getOwner() != producer;
      });
    rewriter.eraseOp(consumer);
    if (producer->use_empty())
      rewriter.eraseOp(producer);
    consumer = cast<linalg::GenericOp>(fused->fusedOp);
  }
}

/// Reads each splat constant input of `op` as a scalar constant, and drops
/// the inputs that are then unread. Returns the op that computes `op`'s
/// results.
static linalg::GenericOp readSplatsAsScalars(RewriterBase &rewriter,
                                             linalg::GenericOp op) {
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    DenseElementsAttr splat;
    if (!matchPattern(input->get(), m_Constant(&splat)) || !splat.isSplat())
      continue;
    BlockArgument argument = op.getMatchingBlockArgument(input);
    if (argument.use_empty())
      continue;
    rewriter.setInsertionPoint(op);
    Value scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             splat.getSplatValue<TypedAttr>());
    rewriter.replaceAllUsesWith(argument, scalar);
    changed = true;
  }
  if (!changed)
    return op;
  FailureOr<linalg::GenericOp> pruned =
      linalg::deduplicateOperandsAndRemoveDeadResults(rewriter, op,
                                                      /*removeOutputs=*/false);
  return succeeded(pruned) ? *pruned : op;
}

/// Gives each init of `op` that its payload never reads a fresh
/// `tensor.empty`: computed into the value it holds, the op would copy it
/// first wherever it may not be overwritten (a pmap's input, a value read
/// again later), only to overwrite it.
static void freshUnreadInits(RewriterBase &rewriter, linalg::LinalgOp op) {
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value value = init.get();
    if (!isa<RankedTensorType>(value.getType()) ||
        value.getDefiningOp<tensor::EmptyOp>() ||
        op.payloadUsesValueFromOperand(&init))
      continue;
    rewriter.setInsertionPoint(op);
    Value empty = tensor::EmptyOp::create(
        rewriter, op.getLoc(),
        tensor::getMixedSizes(rewriter, op.getLoc(), value),
        cast<RankedTensorType>(value.getType()).getElementType());
    rewriter.modifyOpInPlace(op, [&] { init.set(empty); });
  }
}

/// Whether `input` of `op` is a buffer that `op` may compute in place of:
/// one that a linalg op or runtime call wrote (so a writable one), that
/// nothing else reads, and that `op` reads element by element where it
/// writes them.
static bool isDyingBuffer(OpOperand *input, OpOperand &init,
                          linalg::GenericOp op) {
  Value value = input->get();
  Operation *definer = value.getDefiningOp();
  AffineMap map = op.getMatchingIndexingMap(input);
  return definer && isa<linalg::LinalgOp, pcc::spmd::RuntimeCallOp>(definer) &&
         value.getType() == init.get().getType() && map.isPermutation() &&
         map == op.getMatchingIndexingMap(&init) &&
         llvm::all_of(value.getUsers(),
                      [&](Operation *user) { return user == op; });
}

/// Makes a generic whose result is not bound for a destination compute in
/// place of an input that dies there (isDyingBuffer) rather than into a new
/// buffer. (An empty init bound for a pmap's result slice, or another
/// destination, becomes that slice: eliminate-empty-tensors.)
static void reuseDyingInputs(RewriterBase &rewriter, linalg::GenericOp op) {
  if (llvm::any_of(op->getUsers(), [](Operation *user) {
        return isa<tensor::InsertSliceOp,
                   bufferization::MaterializeInDestinationOp>(user);
      }))
    return;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!init.get().getDefiningOp<tensor::EmptyOp>() ||
        op.payloadUsesValueFromOperand(&init))
      continue;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!isDyingBuffer(input, init, op) ||
          llvm::is_contained(op.getDpsInits(), input->get()))
        continue;
      rewriter.modifyOpInPlace(op, [&] { init.set(input->get()); });
      break;
    }
  }
}

namespace {
struct PCCFuseElementwiseOpsPass
    : public pcc::impl::PCCFuseElementwiseOpsBase<PCCFuseElementwiseOpsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        freshUnreadInits(rewriter, op);
    });
    // In order: a producer precedes its consumer, so a chain folds into
    // its last op, which then reads every input of the chain. (Fusion
    // erases only the consumer at hand and producers already visited.)
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics())
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics)
      reuseDyingInputs(
          rewriter, readSplatsAsScalars(rewriter, fuseProducers(rewriter, op)));
    // The inits of the producers fused away.
    getOperation().walk([&](tensor::EmptyOp op) {
      if (op->use_empty())
        rewriter.eraseOp(op);
    });
  }
};
} // namespace
