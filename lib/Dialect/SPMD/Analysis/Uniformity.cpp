//===- Uniformity.cpp - which values differ between devices --------------===//
//
// A forward analysis over the body of an outermost spmd.pmap. Each value gets
// the set of axes along which it may differ between devices: axis_index and
// mapped block arguments start the sets, collectives remove the axes they
// reduce over, every other op unions its operands, and region ops add the
// axes of their control (condition, loop bounds; a linalg op's sizes) to
// their results. Values
// that pass through memory are followed coarsely: a read of memory varies
// along every axis that any write in the pmaps varies along. Loops feed
// values back into their bodies, so the walk repeats until nothing changes;
// the sets only grow and are bounded by the axes in scope, so it ends.
//
//===----------------------------------------------------------------------===//

#include "pcc/Dialect/SPMD/Analysis/Uniformity.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace pcc::spmd;

/// Lets divergent programs through, so that tests can check what the
/// runtime does with them (pcc, pcc-opt and pcc compile all take it).
static llvm::cl::opt<bool> skipUniformityCheck(
    "pcc-skip-uniformity-check", llvm::cl::Hidden,
    llvm::cl::desc("For tests of the runtime's divergence checks: accept "
                   "collectives that only some devices run"));

static void unite(AxisSet &into, ArrayRef<StringAttr> from) {
  for (StringAttr axis : from)
    if (!llvm::is_contained(into, axis))
      into.push_back(axis);
}

/// The operands of the terminators that end the blocks of `op`'s regions.
static SmallVector<Value> getTerminatorOperands(Operation *op) {
  SmallVector<Value> values;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
        llvm::append_range(values, block.back().getOperands());
  return values;
}

UniformityAnalysis::UniformityAnalysis(PmapOp root) {
  do {
    changed = false;
    visit(root);
  } while (changed);
}

ArrayRef<StringAttr> UniformityAnalysis::getVaryingAxes(Value value) const {
  auto it = varyingAxes.find(value);
  if (it == varyingAxes.end())
    return {};
  return it->second;
}

AxisSet UniformityAnalysis::getOperandAxes(ValueRange values) const {
  AxisSet axes;
  for (Value value : values)
    unite(axes, getVaryingAxes(value));
  return axes;
}

void UniformityAnalysis::join(Value value, ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return;
  // Copy first: `axes` may point into the map that the insertion rehashes.
  AxisSet incoming(axes.begin(), axes.end());
  AxisSet &current = varyingAxes[value];
  for (StringAttr axis : incoming) {
    if (llvm::is_contained(current, axis))
      continue;
    current.push_back(axis);
    changed = true;
  }
}

AxisSet UniformityAnalysis::getControlAxes(Operation *op) const {
  if (isa<PmapOp>(op))
    return {};
  if (isa<scf::ExecuteRegionOp>(op)) {
    // With several blocks, the branches between them steer the control.
    AxisSet axes;
    for (Block &block : op->getRegion(0))
      if (!block.empty() && !block.back().hasTrait<OpTrait::ReturnLike>())
        unite(axes, getOperandAxes(block.back().getOperands()));
    return axes;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return getOperandAxes(ifOp.getCondition());
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return getOperandAxes(switchOp.getArg());
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return getOperandAxes(ValueRange{forOp.getLowerBound(),
                                     forOp.getUpperBound(), forOp.getStep()});
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return getOperandAxes(whileOp.getConditionOp().getCondition());
  if (isa<linalg::LinalgOp>(op)) {
    // Its body runs once per element: what its operands hold steers
    // nothing, only their sizes.
    AxisSet axes;
    for (Value operand : op->getOperands())
      unite(axes, getSizeAxes(operand));
    return axes;
  }
  return getOperandAxes(op->getOperands());
}

AxisSet UniformityAnalysis::getSizeAxes(Value value) const {
  while (true) {
    auto shaped = dyn_cast<ShapedType>(value.getType());
    if (!shaped || shaped.hasStaticShape())
      return {};
    Operation *definer = value.getDefiningOp();
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(definer))
      return getOperandAxes(slice.getSizes());
    if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(definer))
      return getOperandAxes(empty.getDynamicSizes());
    if (auto cast = dyn_cast_or_null<tensor::CastOp>(definer)) {
      value = cast.getSource();
      continue;
    }
    // A destination-style op's result has its init's shape.
    if (auto dps = dyn_cast_or_null<DestinationStyleOpInterface>(definer);
        dps && dps.hasPureTensorSemantics()) {
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
      continue;
    }
    return AxisSet(getVaryingAxes(value));
  }
}

AxisSet UniformityAnalysis::getEnclosingControlAxes(Operation *op) const {
  AxisSet axes;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    unite(axes, getControlAxes(parent));
  return axes;
}

void UniformityAnalysis::visitRegions(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        visit(&nested);
}

void UniformityAnalysis::visit(Operation *op) {
  if (auto pmap = dyn_cast<PmapOp>(op)) {
    // Device d of this axis sees slice d: block arguments vary along it.
    StringAttr axis = pmap.getAxisNameAttr();
    for (auto [input, argument] :
         llvm::zip(pmap.getInputs(), pmap.getBody().getArguments())) {
      join(argument, getVaryingAxes(input));
      join(argument, axis);
    }
    visitRegions(op);
    // A result stacks every device of this axis: it no longer varies along it.
    for (auto [result, yielded] :
         llvm::zip(pmap.getResults(), pmap.getYield().getValues())) {
      AxisSet axes;
      for (StringAttr varying : getVaryingAxes(yielded))
        if (varying != axis)
          axes.push_back(varying);
      join(result, axes);
    }
    return;
  }

  if (auto axisIndex = dyn_cast<AxisIndexOp>(op)) {
    for (Attribute axis : axisIndex.getAxisNames())
      join(axisIndex.getResult(), cast<StringAttr>(axis));
    return;
  }

  if (auto collective = dyn_cast<AxisOpInterface>(op)) {
    // Where every device of the named axes receives the same result, it no
    // longer varies along them; where devices receive different parts or
    // groups different results, it varies along them all.
    ArrayAttr over = collective.getAxisNames();
    bool uniform = collective.hasUniformResult();
    AxisSet axes;
    for (StringAttr axis : getOperandAxes(op->getOperands()))
      if (!uniform || !llvm::is_contained(over, axis))
        axes.push_back(axis);
    if (!uniform)
      for (Attribute axis : over)
        axes.push_back(cast<StringAttr>(axis));
    for (Value result : op->getResults())
      join(result, axes);
    return;
  }

  // Memory: whatever a write's operands vary along, reads may see.
  // (Structured ops such as linalg.fill on a buffer have a region too.)
  bool unknownEffects = !isa<MemoryEffectOpInterface>(op) &&
                        !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                        !isMemoryEffectFree(op);
  if (unknownEffects || hasEffect<MemoryEffects::Write>(op)) {
    AxisSet written = getOperandAxes(op->getOperands());
    unite(written, getEnclosingControlAxes(op));
    size_t before = memoryAxes.size();
    unite(memoryAxes, written);
    changed |= memoryAxes.size() != before;
  }
  // bufferization.to_tensor reads its buffer, though it declares no effect.
  if (unknownEffects || hasEffect<MemoryEffects::Read>(op) ||
      op->getName().getStringRef() == "bufferization.to_tensor")
    for (Value result : op->getResults())
      join(result, memoryAxes);

  if (op->getNumRegions() == 0) {
    AxisSet axes = getOperandAxes(op->getOperands());
    for (Value result : op->getResults())
      join(result, axes);
    return;
  }

  AxisSet control = getControlAxes(op);

  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    join(forOp.getInductionVar(), control);
    Operation *yield = forOp.getBody()->getTerminator();
    for (auto [argument, init, yielded] :
         llvm::zip(forOp.getRegionIterArgs(), forOp.getInitArgs(),
                   yield->getOperands())) {
      join(argument, control);
      join(argument, getVaryingAxes(init));
      join(argument, getVaryingAxes(yielded));
    }
    visitRegions(op);
    for (auto [result, argument] :
         llvm::zip(forOp.getResults(), forOp.getRegionIterArgs()))
      join(result, getVaryingAxes(argument));
    return;
  }

  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    scf::ConditionOp condition = whileOp.getConditionOp();
    for (auto [argument, init, yielded] :
         llvm::zip(whileOp.getBeforeArguments(), whileOp.getInits(),
                   whileOp.getYieldOp().getResults())) {
      join(argument, getVaryingAxes(init));
      join(argument, getVaryingAxes(yielded));
    }
    for (auto [argument, forwarded] :
         llvm::zip(whileOp.getAfterArguments(), condition.getArgs())) {
      join(argument, control);
      join(argument, getVaryingAxes(forwarded));
    }
    visitRegions(op);
    for (auto [result, forwarded] :
         llvm::zip(whileOp.getResults(), condition.getArgs())) {
      join(result, control);
      join(result, getVaryingAxes(forwarded));
    }
    return;
  }

  if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op)) {
    // Each region yields one value per result; the control picks the region.
    visitRegions(op);
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      for (auto [result, yielded] : llvm::zip(
               op->getResults(), region.front().getTerminator()->getOperands()))
        join(result, getVaryingAxes(yielded));
    }
    for (Value result : op->getResults())
      join(result, control);
    return;
  }

  // Any other region op (linalg.generic, ...): assume everything that enters
  // or leaves its regions can reach every block argument and every result.
  AxisSet flowing = getOperandAxes(op->getOperands());
  unite(flowing, getOperandAxes(getTerminatorOperands(op)));
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        join(argument, flowing);
  visitRegions(op);
  unite(flowing, getOperandAxes(getTerminatorOperands(op)));
  for (Value result : op->getResults())
    join(result, flowing);
}

/// How `op` makes the execution of its regions depend on a value.
static StringRef describeControl(Operation *op) {
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return "branches on";
  if (isa<scf::ForOp>(op))
    return "takes its loop bounds from";
  if (isa<scf::WhileOp>(op))
    return "loops on a condition computed from";
  return "depends on";
}

LogicalResult pcc::spmd::verifyCollectivesAreUniform(PmapOp root) {
  if (skipUniformityCheck)
    return success();
  UniformityAnalysis analysis(root);
  WalkResult walk = root.walk([&](AxisOpInterface collective) {
    if (isa<AxisIndexOp>(collective))
      return WalkResult::advance();
    ArrayAttr over = collective.getAxisNames();
    for (Operation *parent = collective->getParentOp(); parent != root;
         parent = parent->getParentOp()) {
      AxisSet common;
      for (StringAttr axis : analysis.getControlAxes(parent))
        if (llvm::is_contained(over, axis))
          common.push_back(axis);
      if (common.empty())
        continue;
      InFlightDiagnostic diag = collective->emitOpError()
                                << "runs on only some devices of "
                                << (common.size() == 1 ? "axis " : "axes ");
      llvm::interleaveComma(common, diag,
                            [&](StringAttr axis) { diag << axis; });
      diag << ": the enclosing '" << parent->getName() << "' "
           << describeControl(parent)
           << " a value that differs between them, so the program would "
              "hang; make that value the same on every device (for example, "
              "compute it from a collective's result) or move the collective "
              "out of the '"
           << parent->getName() << "'";
      diag.attachNote(parent->getLoc())
          << "the device-dependent control flow is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
