//===- Passes.h - whole-program passes of both backends ---------*- C++ -*-===//
//
// Passes on the whole program that both backends run: its closure (only
// its own code, values that fit in memory), the entry's C ABI, the renaming
// of its symbols, defined integer division, and buffers that loops reuse.
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

/// What pcc-rename-user-symbols puts before the name of each of the
/// program's own functions and globals.
inline constexpr llvm::StringLiteral kUserSymbolPrefix = "u.";

/// The name a program gave a symbol, after pcc-rename-user-symbols or not.
inline llvm::StringRef getUserSymbolName(llvm::StringRef name) {
  name.consume_front(kUserSymbolPrefix);
  return name;
}

/// The function that pcc-entry-abi wraps the entry in and the driver calls,
/// through MLIR's C interface (`_mlir_ciface__pcc_entry`).
inline constexpr llvm::StringLiteral kEntryWrapperName = "_pcc_entry";

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

#endif // PCC_TRANSFORMS_PASSES_H
