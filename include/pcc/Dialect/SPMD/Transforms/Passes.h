//===- Passes.h - the spmd dialect's own transformations --------*- C++ -*-===//
//
// Rewrites within the spmd dialect: pmean into psum, and pmap bodies into
// device functions that spmd.launch runs on a flattened grid.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_TRANSFORMS_PASSES_H
#define PCC_DIALECT_SPMD_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pcc {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Dialect/SPMD/Transforms/Passes.h.inc"
} // namespace pcc

#endif // PCC_DIALECT_SPMD_TRANSFORMS_PASSES_H
