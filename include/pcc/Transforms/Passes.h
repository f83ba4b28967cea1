//===- Passes.h - pcc's transformations of spmd programs --------*- C++ -*-===//
//
// Declares pcc's passes (defined in Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TRANSFORMS_PASSES_H
#define PCC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include "llvm/ADT/StringRef.h"

namespace pcc {
/// Whether `name` is reserved for pcc's lowering and runtime (it starts with
/// `pcc_`, `_pcc_` or `_mlir_`): programs may not define such symbols.
inline bool isReservedName(llvm::StringRef name) {
  return name.starts_with("pcc_") || name.starts_with("_pcc_") ||
         name.starts_with("_mlir_");
}

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

#endif // PCC_TRANSFORMS_PASSES_H
