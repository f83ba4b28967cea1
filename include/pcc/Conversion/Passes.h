//===- Passes.h - spmd to the runtime and to LLVM ---------------*- C++ -*-===//
//
// Conversions of the spmd dialect: collectives into runtime calls, runtime
// calls into function calls, and launches into calls of the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CONVERSION_PASSES_H
#define PCC_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pcc {
/// Marks a global that only host code reads (the call-site strings that
/// pcc-lower-collectives creates for the runtime's messages), so that
/// pcc-copy-constant-globals leaves it on the host.
inline constexpr llvm::StringLiteral kHostOnlyAttrName = "pcc.host_only";

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

#endif // PCC_CONVERSION_PASSES_H
