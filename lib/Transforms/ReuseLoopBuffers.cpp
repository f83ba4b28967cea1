//===- ReuseLoopBuffers.cpp - a loop's next value into its current one ----===//
//
// Keeps loops from allocating a buffer per step: the empty tensor that a
// yielded value is computed into becomes the loop's own value, so that
// bufferization can work in place of the loop's buffer. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace pcc {
#define GEN_PASS_DEF_PCCREUSELOOPBUFFERS
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The init operand that `result` is computed into, if its op is one whose
/// outs the pass may follow (linalg ops and runtime calls on tensors).
static OpOperand *getInit(OpResult result) {
  Operation *op = result.getOwner();
  if (!isa<linalg::LinalgOp, pcc::spmd::RuntimeCallOp>(op))
    return nullptr;
  // (A result is a tensor, tied to a tensor init, on tensors only.)
  return cast<DestinationStyleOpInterface>(op).getTiedOpOperand(result);
}

/// Whether the op of `init` reads what it holds (a runtime call never does).
static bool readsInit(OpOperand &init) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(init.getOwner()))
    return linalgOp.payloadUsesValueFromOperand(&init);
  return false;
}

namespace {
struct PCCReuseLoopBuffersPass
    : public pcc::impl::PCCReuseLoopBuffersBase<PCCReuseLoopBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForOp loop) {
      Block *body = loop.getBody();
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      for (auto [current, next] :
           llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) {
        // From the yielded value back through the inits it was computed
        // into, within the body, to an empty tensor.
        Value value = next;
        while (auto result = dyn_cast<OpResult>(value)) {
          if (result.getOwner()->getBlock() != body)
            break;
          OpOperand *init = getInit(result);
          if (!init)
            break;
          // (Of the loop value's type: a tied init has its result's type.)
          if (init->get().getDefiningOp<tensor::EmptyOp>()) {
            if (!readsInit(*init))
              init->set(current);
            break;
          }
          value = init->get();
        }
      }
    });
  }
};
} // namespace
