//===- BlasChoice.h - PCC_BLAS: which GEMM the runtime uses --*- C++ -*-===//
//-*-===//
//
// PCC_BLAS: `openblas` (the system's OpenBLAS, an error where it cannot be
// loaded), `builtin` (the runtime's own GEMM) or `auto` (the default:
// OpenBLAS where it loads, else the builtin one). Read by the device pool
// before any device runs, so that a typo is an error up front, and by the
// GEMM (lib/Runtime/CPU).
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_BLASCHOICE_H
#define PCC_LIB_RUNTIME_BLASCHOICE_H

#include <string>

namespace pcc::runtime {

enum class BlasChoice { Auto, OpenBlas, Builtin, Invalid };

/// PCC_BLAS, read once.
BlasChoice blasChoice();

/// What is wrong with PCC_BLAS, where it is invalid.
std::string invalidBlasChoice();

/// Whether PCC_BLAS is unset or valid; otherwise prints an error and
/// returns false.
bool checkBlasChoice();

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_BLASCHOICE_H
