//===- SPMDOps.h - the spmd dialect and its ops -----------------*- C++ -*-===//
//
// Declares the spmd dialect, its ops (spmd.pmap, spmd.yield, the collectives
// and the ops pcc's lowering creates) and AxisOpInterface. Include this one
// header to use them.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_IR_SPMDOPS_H
#define PCC_DIALECT_SPMD_IR_SPMDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "pcc/Runtime/RuntimeABI.h"

#include "pcc/Dialect/SPMD/IR/SPMDOpsDialect.h.inc"
#include "pcc/Dialect/SPMD/IR/SPMDOpsInterfaces.h.inc"

namespace pcc::spmd {
class YieldOp;

/// The attributes with which a device function outlined from pmaps names its
/// grid: axis names outermost first, and their sizes.
inline constexpr llvm::StringLiteral kGridAxesAttrName = "spmd.grid_axes";
inline constexpr llvm::StringLiteral kGridSizesAttrName = "spmd.grid_sizes";

/// On a collective that a pass made from another (the psum of an expanded
/// pmean), the name of the op the program wrote ("spmd.pmean"): errors,
/// traces and profiles name that one.
inline constexpr llvm::StringLiteral kWrittenAsAttrName = "spmd.written_as";

/// The runtime's element type that `type` is (pcc/Runtime/RuntimeABI.def),
/// or null if values of `type` cannot cross devices.
const abi::ElementType *getRuntimeElementType(mlir::Type type);

/// Whether `type` is an element type that collectives and pmap operands
/// accept: a runtime element type that all-reduce takes (every one but i1),
/// or any runtime element type where `allowI1` is set (all_gather).
bool isSupportedElementType(mlir::Type type, bool allowI1 = false);

/// The element types of isSupportedElementType, for messages: "i8, i16,
/// ..., f32 or f64" (`allowI1`: and i1).
std::string getSupportedElementTypesText(bool allowI1);
} // namespace pcc::spmd

#define GET_OP_CLASSES
#include "pcc/Dialect/SPMD/IR/SPMDOps.h.inc"

namespace pcc::spmd {
/// The number of devices a verified collective or axis_index spans: the
/// product of the sizes of the axes it names.
int64_t getGroupSize(AxisOpInterface op);

/// The positions, in the grid of axes in scope (outermost first), of the axes
/// a verified collective or axis_index names, in the order it names them.
llvm::SmallVector<int64_t> getAxisPositions(AxisOpInterface op);
} // namespace pcc::spmd

#endif // PCC_DIALECT_SPMD_IR_SPMDOPS_H
