//===- Passes.h - code generation for the cuda backend ----------*- C++ -*-===//
//
// How the cuda backend turns buffers of linalg ops into GPU kernels:
// cooperative reductions and matmuls, collapsed parallel loops, all-reduce
// lowered after outlining, and the host-side setup the kernels need.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CODEGEN_CUDA_PASSES_H
#define PCC_CODEGEN_CUDA_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pcc {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

#endif // PCC_CODEGEN_CUDA_PASSES_H
