//===- OutlineSegments.cpp - the work between calls into functions --------===//
//
// Keeps compile time linear in the size of a function: in a function of
// many ops, the work (loops, linalg ops, runtime calls) between pmap
// launches and stack allocations moves into functions of a few dozen ops
// each, so that lowering and LLVM see many small functions (as XLA
// compiles each fusion separately) rather than one whose passes cost more
// per op the longer it gets.
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace pcc {
#define GEN_PASS_DEF_PCCOUTLINESEGMENTS
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Whether `op` may move into an outlined function. What stays: pmap
/// launches (host code that later passes lower where they find it), stack
/// allocations (their buffers die with the function that makes them) and
/// terminators. Runtime calls move with the rest: they are self-contained.
static bool isMovable(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<memref::AllocaOp>(op))
    return false;
  WalkResult result = op->walk([](Operation *nested) {
    return isa<pcc::spmd::LaunchOp>(nested) ? WalkResult::interrupt()
                                            : WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether `op` does work worth a call: a loop or linalg op, a call.
static bool isWork(Operation *op) {
  return op->getNumRegions() > 0 || isa<CallOpInterface>(op) ||
         isa<pcc::spmd::RuntimeCallOp>(op);
}

/// Whether `op` makes a value from nothing (a constant, a global's
/// address): a segment that reads it makes its own copy, so that loop
/// bounds stay constants there and no segment passes such values on.
static bool isRematerializable(Operation *op) {
  return op && op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 && isMemoryEffectFree(op);
}

namespace {
struct PCCOutlineSegmentsPass
    : public pcc::impl::PCCOutlineSegmentsBase<PCCOutlineSegmentsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      int64_t ops = 0;
      function.walk([&](Operation *) { ++ops; });
      if (ops > minOps)
        functions.push_back(function);
    }
    for (func::FuncOp function : functions) {
      unsigned count = 0;
      // Segments follow their function, in order.
      lastInserted = function;
      // Blocks of the function and of its regions, outermost first; a run
      // moved out of one is not visited again.
      SmallVector<Block *> blocks;
      function.walk<WalkOrder::PreOrder>([&](Block *block) {
        blocks.push_back(block);
      });
      for (Block *block : blocks) {
        if (Operation *parent = block->getParentOp();
            parent != function && isOutlined(parent, function))
          continue;
        outlineRuns(*block, function, symbols, count);
      }
    }
  }

  /// Whether `op` was moved out of `function` by an earlier outlining.
  static bool isOutlined(Operation *op, func::FuncOp function) {
    return op->getParentOfType<func::FuncOp>() != function;
  }

  /// The last segment made (or the function it was made from).
  Operation *lastInserted = nullptr;

  /// Outlines the runs of movable ops in `block` that do work, in pieces
  /// of at most `maxSegmentOps` ops. An op larger than that stays, and its
  /// blocks are visited in turn.
  void outlineRuns(Block &block, func::FuncOp function, SymbolTable &symbols,
                   unsigned &count) {
    SmallVector<Operation *> run;
    int64_t runOps = 0;
    bool hasWork = false;
    auto flush = [&] {
      if (hasWork)
        outline(run, function, symbols, count++);
      run.clear();
      runOps = 0;
      hasWork = false;
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      // Left where it is (it costs nothing): moved with a run, its value
      // would be an output of that segment and an argument of every later
      // one that reads it (a psum's call site, for one).
      if (isRematerializable(&op))
        continue;
      int64_t size = 0;
      op.walk([&](Operation *) { ++size; });
      if (size > maxSegmentOps || !isMovable(&op)) {
        flush();
        continue;
      }
      if (runOps + size > maxSegmentOps)
        flush();
      run.push_back(&op);
      runOps += size;
      hasWork |= isWork(&op);
    }
    flush();
  }

  /// Moves `run` (consecutive ops of one block) into a new private function
  /// named after `function`, and calls it in their place.
  void outline(ArrayRef<Operation *> run, func::FuncOp function,
               SymbolTable &symbols, unsigned index) {
    Block *block = run.front()->getBlock();
    DenseSet<Operation *> inRun(run.begin(), run.end());
    auto isInside = [&](Operation *op) {
      Operation *ancestor = block->findAncestorOpInBlock(*op);
      return ancestor && inRun.contains(ancestor);
    };
    // What the run reads from outside and what it defines for later ops.
    llvm::SetVector<Value> inputs, rematerialized;
    for (Operation *op : run)
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *definer = operand.getDefiningOp();
          if (!definer)
            definer = operand.getParentBlock()->getParentOp();
          if (isInside(definer))
            continue;
          (isRematerializable(operand.getDefiningOp()) ? rematerialized
                                                       : inputs)
              .insert(operand);
        }
      });
    SmallVector<Value> outputs;
    for (Operation *op : run)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !isInside(user); }))
          outputs.push_back(result);

    Location loc = run.front()->getLoc();
    OpBuilder moduleBuilder(function);
    moduleBuilder.setInsertionPointAfter(lastInserted);
    auto type = FunctionType::get(&getContext(),
                                  ValueRange(inputs.getArrayRef()).getTypes(),
                                  ValueRange(outputs).getTypes());
    auto segment = func::FuncOp::create(
        moduleBuilder, loc,
        (function.getSymName() + "_segment" + Twine(index)).str(), type);
    segment.setPrivate();
    // LLVM would otherwise inline every segment back into its caller.
    segment->setAttr("passthrough",
                     moduleBuilder.getArrayAttr(
                         {moduleBuilder.getStringAttr("noinline")}));
    symbols.insert(segment);
    lastInserted = segment;

    OpBuilder builder(run.front());
    auto call = func::CallOp::create(builder, loc, segment,
                                     ValueRange(inputs.getArrayRef()));

    Block *body = segment.addEntryBlock();
    OpBuilder bodyBuilder = OpBuilder::atBlockBegin(body);
    IRMapping mapping;
    for (auto [input, argument] : llvm::zip(inputs, body->getArguments()))
      mapping.map(input, argument);
    for (Value value : rematerialized)
      mapping.map(value, bodyBuilder.clone(*value.getDefiningOp())->getResult(0));
    for (Operation *op : run)
      op->moveBefore(body, body->end());
    for (Operation *op : run)
      op->walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands())
          if (Value replacement = mapping.lookupOrNull(operand.get()))
            operand.set(replacement);
      });
    bodyBuilder.setInsertionPointToEnd(body);
    func::ReturnOp::create(bodyBuilder, loc, outputs);

    for (auto [output, result] : llvm::zip(outputs, call.getResults()))
      output.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !segment->isProperAncestor(use.getOwner());
      });
  }
};
} // namespace
