//===- Compile.h - pcc driver: from source to a callable entry --*- C++ -*-===//
//
// The MLIR half of the driver: the dialects and interfaces a pcc program
// needs, the entry function's boundary signature, the lowering pipeline and
// the JIT. Located problems are reported through the context's diagnostic
// handler; the rest come back as llvm::Error.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TOOLS_PCC_COMPILE_H
#define PCC_TOOLS_PCC_COMPILE_H

#include "Marshal.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pcc::driver {

/// The boundary signature of the entry function `name`, or failure after
/// reporting why the function cannot be called from the driver.
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::ModuleOp module,
                                                  llvm::StringRef name);

/// The number of devices the program runs on: the largest grid of any
/// outermost spmd.pmap nest, or nullopt if it has no spmd.pmap.
std::optional<int64_t> countDevices(mlir::ModuleOp module);

/// Lowers `module` in place with the cpu backend's pipeline.
mlir::LogicalResult lowerForCpu(mlir::ModuleOp module, llvm::StringRef entry);

/// A JIT-compiled program and its entry point.
struct CompiledProgram {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  /// `_mlir__mlir_ciface__pcc_entry`: takes a pointer to each descriptor
  /// pointer.
  void (*entry)(void **) = nullptr;
};

/// JIT-compiles a module in the LLVM dialect at -O2; calls to the pcc runtime
/// resolve to the driver's own copy of it.
llvm::Expected<CompiledProgram> jitCompile(mlir::ModuleOp module);

} // namespace pcc::driver

#endif // PCC_TOOLS_PCC_COMPILE_H
