//===- PrivatizeBodyWrites.cpp - a copy per element for writes in bodies --===//
//
// A linalg op's body runs once per element, but bufferization analyses it
// as code that runs once: a write in it into a tensor from outside the body
// would be made in place, and the next element would see it. Each such write
// gets a copy of its own, made in the body. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace pcc {
#define GEN_PASS_DEF_PCCPRIVATIZEBODYWRITES
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The op whose body runs once per element (a linalg op, a
/// tensor.generate, a tensor.pad's padding region) nearest around `op`, or
/// null.
static Operation *getRepeatedBodyOwner(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<linalg::LinalgOp, tensor::GenerateOp, tensor::PadOp>(parent))
      return parent;
  return nullptr;
}

/// Whether `value`, used in the body of `owner`, is (or is a view of,
/// through the ops of the body whose results alias an operand, such as
/// tensor.extract_slice) a tensor defined outside that body.
static bool isViewOfOutsideTensor(Value value, Operation *owner,
                                  const bufferization::AnalysisState &state) {
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (!owner->isAncestor(current.getParentRegion()->getParentOp()))
      return true;
    // A block argument in the body (a loop's iter_arg) starts from a value
    // that its op writes into, and copied there if it is from outside.
    if (isa<BlockArgument>(current))
      continue;
    for (bufferization::AliasingOpOperand alias :
         state.getAliasingOpOperands(current))
      worklist.push_back(alias.opOperand->get());
  }
  return false;
}

/// Whether the write through `operand` needs none of the tensor's contents:
/// into an empty tensor (its contents undefined), or as the init of a
/// linalg op whose payload never reads it (it writes every element).
static bool overwritesAll(OpOperand &operand) {
  if (operand.get().getDefiningOp<tensor::EmptyOp>())
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(operand.getOwner());
  return linalgOp && linalgOp.isDpsInit(&operand) &&
         !linalgOp.payloadUsesValueFromOperand(&operand);
}

namespace {
struct PCCPrivatizeBodyWritesPass
    : public pcc::impl::PCCPrivatizeBodyWritesBase<PCCPrivatizeBodyWritesPass> {
  void runOnOperation() override {
    bufferization::BufferizationOptions options;
    bufferization::AnalysisState state(options);
    // In order, so that a write into what an earlier one wrote (its copy)
    // is seen to stay in the body.
    getOperation().walk([&](Operation *op) {
      Operation *owner = getRepeatedBodyOwner(op);
      if (!owner)
        return;
      for (OpOperand &operand : op->getOpOperands()) {
        Value tensor = operand.get();
        if (!isa<RankedTensorType>(tensor.getType()) ||
            !state.bufferizesToMemoryWrite(operand) ||
            !isViewOfOutsideTensor(tensor, owner, state))
          continue;
        OpBuilder builder(op);
        Location loc = op->getLoc();
        auto type = cast<RankedTensorType>(tensor.getType());
        if (!overwritesAll(operand)) {
          operand.set(bufferization::AllocTensorOp::create(
              builder, loc, type, /*dynamicSizes=*/ValueRange(), tensor));
          continue;
        }
        SmallVector<Value> sizes;
        for (int64_t dim = 0; dim < type.getRank(); ++dim)
          if (type.isDynamicDim(dim))
            sizes.push_back(tensor::DimOp::create(builder, loc, tensor, dim));
        operand.set(
            bufferization::AllocTensorOp::create(builder, loc, type, sizes));
      }
    });
  }
};
} // namespace
