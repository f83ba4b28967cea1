//===- Gemm.cpp - the host runtime's matrix multiplication ----------------===//
//
// C += A * B, or C = A * B, on the calling thread (each device is one), for
// the cpu pipeline's linalg.matmul (pcc-matmul-to-runtime), as XLA's CPU
// backend calls Eigen: loop nests alone reach a few percent of the machine. It is
// OpenBLAS's GEMM where the system has it (OpenBlas.cpp; PCC_BLAS chooses),
// else the builtin one below.
//
// The builtin GEMM is the algorithm of GotoBLAS/BLIS: B is packed in panels of
// NR columns and A in panels of MR rows, for blocks of KC x NC and MC x KC that
// stay in the L2 and L1 caches, and a micro-kernel keeps an MR x NR tile of C
// in registers while it streams through both panels. The micro-kernel is
// written with vector extensions, compiled twice: for AVX2 with FMA
// (chosen at run time when the CPU has them) and for the baseline ISA.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "BlasChoice.h"
#include "Gemm.h"
#include "RuntimeError.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>

namespace pcc::runtime {
namespace {

template <typename T> struct Vector;
template <> struct Vector<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <> struct Vector<double> {
  typedef double type __attribute__((vector_size(32)));
};

/// Block sizes: the packed KC x NR panel of B stays in L1 while a micro-
/// kernel runs, the MC x KC block of A in L2; NC bounds the packed B block.
template <typename T> struct Blocking {
  using V = typename Vector<T>::type;
  static constexpr int64_t kLanes = sizeof(V) / sizeof(T);
  static constexpr int64_t MR = 6;
  static constexpr int64_t NR = 2 * kLanes;
  static constexpr int64_t KC = 256;
  static constexpr int64_t MC = 16 * MR;
  static constexpr int64_t NC = 256 * NR;
};

/// Packs rows [0, m) x columns [0, k) of A into panels of MR rows, k-major
/// inside a panel, zero-padding the last panel.
template <typename T>
inline void packA(MatrixView<T> a, int64_t m, int64_t k, T *out) {
  constexpr int64_t MR = Blocking<T>::MR;
  for (int64_t i0 = 0; i0 < m; i0 += MR) {
    int64_t rows = std::min(MR, m - i0);
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t r = 0; r < rows; ++r)
        out[r] = a.data[(i0 + r) * a.rowStride + p * a.colStride];
      for (int64_t r = rows; r < MR; ++r)
        out[r] = T(0);
      out += MR;
    }
  }
}

/// Packs rows [0, k) x columns [0, n) of B into panels of NR columns.
template <typename T>
inline void packB(MatrixView<T> b, int64_t k, int64_t n, T *out) {
  constexpr int64_t NR = Blocking<T>::NR;
  for (int64_t j0 = 0; j0 < n; j0 += NR) {
    int64_t cols = std::min(NR, n - j0);
    for (int64_t p = 0; p < k; ++p) {
      const T *row = b.data + p * b.rowStride + j0 * b.colStride;
      for (int64_t c = 0; c < cols; ++c)
        out[c] = row[c * b.colStride];
      for (int64_t c = cols; c < NR; ++c)
        out[c] = T(0);
      out += NR;
    }
  }
}

/// The view of `m` from row `i`, column `j`.
template <typename T>
MatrixView<T> offset(MatrixView<T> m, int64_t i, int64_t j) {
  return {m.data + i * m.rowStride + j * m.colStride, m.rowStride, m.colStride};
}

/// C[0:rows, 0:cols] += (packed A panel) * (packed B panel) over k, or =
/// without `add`.
template <typename T>
__attribute__((always_inline)) inline void
microKernel(int64_t k, const T *a, const T *b, T *c, int64_t ldc, int64_t rows,
            int64_t cols, bool add) {
  using V = typename Vector<T>::type;
  constexpr int64_t MR = Blocking<T>::MR;
  constexpr int64_t NR = Blocking<T>::NR;
  constexpr int64_t kLanes = Blocking<T>::kLanes;
  V acc[MR][2] = {};
  for (int64_t p = 0; p < k; ++p) {
    V b0, b1;
    std::memcpy(&b0, b + p * NR, sizeof(V));
    std::memcpy(&b1, b + p * NR + kLanes, sizeof(V));
    for (int64_t r = 0; r < MR; ++r) {
      V ar = V{} + a[p * MR + r];
      acc[r][0] += ar * b0;
      acc[r][1] += ar * b1;
    }
  }
  if (rows == MR && cols == NR) {
    for (int64_t r = 0; r < MR; ++r) {
      V c0 = acc[r][0], c1 = acc[r][1];
      if (add) {
        V old0, old1;
        std::memcpy(&old0, c + r * ldc, sizeof(V));
        std::memcpy(&old1, c + r * ldc + kLanes, sizeof(V));
        c0 += old0;
        c1 += old1;
      }
      std::memcpy(c + r * ldc, &c0, sizeof(V));
      std::memcpy(c + r * ldc + kLanes, &c1, sizeof(V));
    }
    return;
  }
  T tile[MR][NR];
  std::memcpy(tile, acc, sizeof(tile));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t col = 0; col < cols; ++col)
      c[r * ldc + col] = add ? c[r * ldc + col] + tile[r][col] : tile[r][col];
}

/// The blocked product, for one instruction set (see the wrappers below);
/// the first block of k writes C unless `accumulate`.
template <typename T>
__attribute__((always_inline)) inline void
gemmBlocked(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
            int64_t n, int64_t k, bool accumulate, T *packedA, T *packedB) {
  using B = Blocking<T>;
  for (int64_t j0 = 0; j0 < n; j0 += B::NC) {
    int64_t nc = std::min(B::NC, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += B::KC) {
      int64_t kc = std::min(B::KC, k - p0);
      packB(offset(b, p0, j0), kc, nc, packedB);
      for (int64_t i0 = 0; i0 < m; i0 += B::MC) {
        int64_t mc = std::min(B::MC, m - i0);
        packA(offset(a, i0, p0), mc, kc, packedA);
        for (int64_t jr = 0; jr < nc; jr += B::NR)
          for (int64_t ir = 0; ir < mc; ir += B::MR)
            microKernel<T>(kc, packedA + ir * kc, packedB + jr * kc,
                           c + (i0 + ir) * ldc + j0 + jr, ldc,
                           std::min(B::MR, mc - ir), std::min(B::NR, nc - jr),
                           accumulate || p0 > 0);
      }
    }
  }
}

#if defined(__x86_64__)
#define PCC_GEMM_AVX2 1
template <typename T>
__attribute__((target("avx2,fma"))) void
gemmAvx2(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
         int64_t n, int64_t k, bool accumulate, T *packedA, T *packedB) {
  gemmBlocked(a, b, c, ldc, m, n, k, accumulate, packedA, packedB);
}
#endif

template <typename T>
void gemmBaseline(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool accumulate,
                  T *packedA, T *packedB) {
  gemmBlocked(a, b, c, ldc, m, n, k, accumulate, packedA, packedB);
}

bool hasAvx2() {
#if PCC_GEMM_AVX2
  static const bool has =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

/// The packing buffers, per thread (each device is one), kept between
/// calls: a matmul in a loop allocates nothing. About 4 MiB per thread,
/// outside --memory-limit's count.
template <typename T> T *packingBuffer(bool forA) {
  using B = Blocking<T>;
  struct Buffers {
    std::unique_ptr<T[]> a{new (std::nothrow) T[B::MC * B::KC]};
    std::unique_ptr<T[]> b{new (std::nothrow) T[B::KC * B::NC]};
  };
  thread_local Buffers buffers;
  if (!buffers.a || !buffers.b)
    failRun("out of memory for the matrix multiplication's packing buffers");
  return forA ? buffers.a.get() : buffers.b.get();
}

/// A rank-2 memref descriptor of MLIR's C interface.
template <typename T> struct Matrix {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];

  MatrixView<T> view() const {
    return {aligned + offset, strides[0], strides[1]};
  }
};

/// C += A * B (or C = A * B) for memrefs: C's rows are contiguous, A's and
/// B's rows or columns (the pass checks).
template <typename T>
void gemmMemRef(const void *a, const void *b, const void *c,
                bool accumulate) {
  const auto *ma = static_cast<const Matrix<T> *>(a);
  const auto *mb = static_cast<const Matrix<T> *>(b);
  const auto *mc = static_cast<const Matrix<T> *>(c);
  gemm(ma->view(), mb->view(), mc->aligned + mc->offset, mc->strides[0],
       mc->sizes[0], mc->sizes[1], ma->sizes[1], accumulate);
}

/// C = 0, the product of an empty sum (k = 0) written over C.
template <typename T>
void zeroRows(T *c, int64_t ldc, int64_t m, int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    std::fill(c + i * ldc, c + i * ldc + n, T(0));
}

} // namespace

template <typename T>
void builtinGemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
                 int64_t n, int64_t k, bool accumulate) {
  if (m <= 0 || n <= 0)
    return;
  if (k <= 0) {
    if (!accumulate)
      zeroRows(c, ldc, m, n);
    return;
  }
  T *packedA = packingBuffer<T>(true), *packedB = packingBuffer<T>(false);
#if PCC_GEMM_AVX2
  if (hasAvx2())
    return gemmAvx2(a, b, c, ldc, m, n, k, accumulate, packedA, packedB);
#endif
  gemmBaseline(a, b, c, ldc, m, n, k, accumulate, packedA, packedB);
}

template <typename T>
void gemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc, int64_t m,
          int64_t n, int64_t k, bool accumulate) {
  if (m <= 0 || n <= 0)
    return;
  BlasChoice choice = blasChoice();
  // Checked before any device runs; a matmul outside every pmap may come
  // first.
  if (choice == BlasChoice::Invalid)
    failRun(invalidBlasChoice());
  // An empty sum (k = 0) is the builtin GEMM's to answer: no library needed.
  if (choice != BlasChoice::Builtin && k > 0) {
    const char *why = nullptr;
    if (!openblasLoaded(&why) && choice == BlasChoice::OpenBlas)
      failRun(std::string("PCC_BLAS=openblas, but OpenBLAS does not load (") +
              why +
              "): install libopenblas0, or set PCC_BLAS to auto or "
              "builtin");
    if (openblasGemm(a, b, c, ldc, m, n, k, accumulate))
      return;
  }
  builtinGemm(a, b, c, ldc, m, n, k, accumulate);
}

template void builtinGemm<float>(MatrixView<float>, MatrixView<float>, float *,
                                 int64_t, int64_t, int64_t, int64_t, bool);
template void builtinGemm<double>(MatrixView<double>, MatrixView<double>,
                                  double *, int64_t, int64_t, int64_t, int64_t,
                                  bool);
template void gemm<float>(MatrixView<float>, MatrixView<float>, float *,
                          int64_t, int64_t, int64_t, int64_t, bool);
template void gemm<double>(MatrixView<double>, MatrixView<double>, double *,
                           int64_t, int64_t, int64_t, int64_t, bool);

} // namespace pcc::runtime

using pcc::runtime::gemm;
using pcc::runtime::gemmMemRef;

extern "C" {
void pcc_gemm_f32(const float *a, int64_t lda, const float *b, int64_t ldb,
                  float *c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  gemm<float>({a, lda, 1}, {b, ldb, 1}, c, ldc, m, n, k, true);
}

void pcc_gemm_f64(const double *a, int64_t lda, const double *b, int64_t ldb,
                  double *c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  gemm<double>({a, lda, 1}, {b, ldb, 1}, c, ldc, m, n, k, true);
}

void _mlir_ciface_pcc_mlir_matmul_f32(const void *a, const void *b,
                                      const void *c, int32_t accumulate) {
  gemmMemRef<float>(a, b, c, accumulate != 0);
}

void _mlir_ciface_pcc_mlir_matmul_f64(const void *a, const void *b,
                                      const void *c, int32_t accumulate) {
  gemmMemRef<double>(a, b, c, accumulate != 0);
}
}
