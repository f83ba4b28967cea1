//===- KernelChecks.h - Bounds checks of GPU kernels' accesses --*- C++ -*-===//
//
// Private to lib/Codegen/CUDA: the one definition of what is checked in a
// kernel (each index of each memref load, store and atomic update, against
// its axis, before the access; each slice against the buffer it views),
// shared by the simulated GPU's kernels
// (pcc-gpu-kernels-to-host: the runtime reports the fault) and the NVVM ones
// (pcc-check-kernel-accesses: the thread prints it and traps); and how the
// simulated GPU's passes declare the runtime functions they call.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_CODEGEN_CUDA_KERNELCHECKS_H
#define PCC_LIB_CODEGEN_CUDA_KERNELCHECKS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/SymbolTable.h"

#include <string>

namespace pcc {

/// "prog.mlir:7:10" for the first file location in `loc`, "" if none.
std::string describeLocation(mlir::Location loc);

/// Builds, at `builder`'s insertion point in a block of its own, what
/// happens when `site` (a location and a description of the access) uses
/// index `index` on axis `axis` of size `bound` (all i64); the block's
/// llvm.unreachable follows.
using OutOfBoundsHandler = llvm::function_ref<void(
    mlir::OpBuilder &builder, mlir::Location loc, llvm::StringRef site,
    mlir::Value axis, mlir::Value index, mlir::Value bound)>;

/// Puts a check of each index of every memref.load, memref.store,
/// memref.atomic_rmw and memref.generic_atomic_rmw in `body` before it, and
/// of each memref.subview's offset and last element (where any is dynamic)
/// against its source: an index outside its axis branches to a block built
/// by `onFailure` instead of touching memory. `body` must be in the cf dialect's form (blocks, not
/// structured control flow).
void checkKernelAccesses(mlir::Region &body, OutOfBoundsHandler onFailure);

/// The external function `name` of the module of `symbols`, declared at its
/// end the first time.
mlir::LLVM::LLVMFuncOp
declareLLVMFunction(mlir::SymbolTable &symbols, llvm::StringRef name,
                    mlir::Type result, llvm::ArrayRef<mlir::Type> arguments);

} // namespace pcc

#endif // PCC_LIB_CODEGEN_CUDA_KERNELCHECKS_H
