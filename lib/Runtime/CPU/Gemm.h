//===- Gemm.h - The host runtime's matrix multiplication -------*- C++ -*-===//
//
// C += A * B (or, without `accumulate`, C = A * B) for an m x k matrix A and
// a k x n matrix B into an m x n matrix C whose rows are contiguous. A and B
// are views with a row and a column stride, so that a transposed operand
// (unit row stride) is read in place.
// gemm() uses OpenBLAS where PCC_BLAS allows it and it loads, else the
// builtin GEMM; the tests call each one.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_GEMM_H
#define PCC_LIB_RUNTIME_GEMM_H

#include <cstdint>

namespace pcc::runtime {

template <typename T> struct MatrixView {
  const T *data;
  int64_t rowStride;
  int64_t colStride;
};

template <typename T>
void gemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
          int64_t n, int64_t k, bool accumulate);

/// The runtime's own GEMM, on the calling thread.
template <typename T>
void builtinGemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
                 int64_t n, int64_t k, bool accumulate);

/// Whether the system's OpenBLAS (libopenblas.so.0) is loaded, loading it on
/// the first call; `why` gets dlerror's message when it is not.
bool openblasLoaded(const char **why = nullptr);

/// OpenBLAS's GEMM on one thread (the calling one), where it is loaded and
/// BLAS can take the operands (a unit stride in one dimension, leading
/// dimensions and sizes that fit its int); returns false, having done
/// nothing, otherwise.
template <typename T>
bool openblasGemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool accumulate);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_GEMM_H
