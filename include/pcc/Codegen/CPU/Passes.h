//===- Passes.h - code generation for the cpu backend -----------*- C++ -*-===//
//
// How the cpu backend turns buffers of linalg ops into fast loops: matmuls
// as runtime GEMM calls, strided copies as loops, reductions reassociated
// for vectorization.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CODEGEN_CPU_PASSES_H
#define PCC_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pcc {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

#endif // PCC_CODEGEN_CPU_PASSES_H
