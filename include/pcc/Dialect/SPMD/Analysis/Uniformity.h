//===- Uniformity.h - which values differ between devices -------*- C++ -*-===//
//
// In an spmd.pmap body some values are the same on every device (constants,
// captured values, results of collectives) and some differ (spmd.axis_index,
// mapped block arguments, anything computed from them). A collective under
// control flow that depends on a differing value is reached by only some
// devices and would hang real hardware; the pmap verifier uses this analysis
// to reject such programs, and passes can use it to reason about uniformity.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_ANALYSIS_UNIFORMITY_H
#define PCC_DIALECT_SPMD_ANALYSIS_UNIFORMITY_H

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "llvm/ADT/DenseMap.h"

namespace pcc::spmd {

/// A set of pmap axis names.
using AxisSet = llvm::SmallVector<mlir::StringAttr, 2>;

/// For every value in the body of an outermost spmd.pmap, the axes along
/// which it may differ between devices. The analysis is conservative: a value
/// it calls uniform along an axis is the same on every device of that axis,
/// control dependence included (an scf.if result is per-device when its
/// condition is).
class UniformityAnalysis {
public:
  /// Analyses `root`, an spmd.pmap that no other pmap encloses.
  explicit UniformityAnalysis(PmapOp root);

  /// The axes along which `value` may differ between devices. Empty for a
  /// value that every device of every enclosing axis agrees on.
  llvm::ArrayRef<mlir::StringAttr> getVaryingAxes(mlir::Value value) const;

  /// The axes along which devices may disagree on whether, or how often, the
  /// regions of `op` run: those of an scf.if condition, scf.for bounds, an
  /// scf.while condition. Unknown region ops count all their operands.
  AxisSet getControlAxes(mlir::Operation *op) const;

private:
  void visit(mlir::Operation *op);
  void visitRegions(mlir::Operation *op);
  /// Adds `axes` to what `value` varies along; notes whether that changed.
  void join(mlir::Value value, llvm::ArrayRef<mlir::StringAttr> axes);
  AxisSet getOperandAxes(mlir::ValueRange values) const;
  /// The axes along which the sizes of `value` may differ: none for a
  /// static shape; those of the sizes a slice, an empty tensor, a cast or a
  /// destination-style op's init give it; else its values' own.
  AxisSet getSizeAxes(mlir::Value value) const;
  /// The control axes of every region op around `op`.
  AxisSet getEnclosingControlAxes(mlir::Operation *op) const;

  llvm::DenseMap<mlir::Value, AxisSet> varyingAxes;
  /// What memory written inside the pmaps may vary along: values do not
  /// carry their axes into buffers, so every read of memory gets all the
  /// axes of every write (a buffer filled with the device's index, then
  /// read back, varies along its axis).
  AxisSet memoryAxes;
  bool changed = false;
};

/// Checks that every collective in `root` (an outermost spmd.pmap) is reached
/// by all devices of the axes it names or by none. Emits an error at the
/// first collective that sits under device-dependent control flow.
mlir::LogicalResult verifyCollectivesAreUniform(PmapOp root);

} // namespace pcc::spmd

#endif // PCC_DIALECT_SPMD_ANALYSIS_UNIFORMITY_H
