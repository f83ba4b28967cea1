//===- Passes.h - pcc's transformations of spmd programs --------*- C++ -*-===//
//
// Declares pcc's passes (defined in Passes.td) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TRANSFORMS_PASSES_H
#define PCC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pcc {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

#endif // PCC_TRANSFORMS_PASSES_H
