//===- OpenBlas.cpp - The system's OpenBLAS, where it is installed --------===//
//
// pcc and the executables it compiles do not link a BLAS: the runtime loads
// Debian's OpenBLAS (libopenblas.so.0, package libopenblas0) with dlopen on
// the first matrix multiplication, and falls back on its own GEMM where it
// is absent. OpenBLAS's hand-written kernels are faster than the builtin
// one (benchmarks.md). Each call runs on the calling thread, as every
// device is a thread (or a fiber) of its own: OpenBLAS is told to use one
// thread when it is loaded, and again by each thread that calls it where
// it is an OpenMP build, which keeps that setting per thread.
//
//===----------------------------------------------------------------------===//

#include "Gemm.h"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <string>

namespace pcc::runtime {
namespace {

// CBLAS's enumerations and functions (cblas.h), declared here so that pcc
// builds without a BLAS installed.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
template <typename T>
using CblasGemm = void (*)(int order, int transA, int transB, int m, int n,
                           int k, T alpha, const T *a, int lda, const T *b,
                           int ldb, T beta, T *c, int ldc);

struct OpenBlas {
  CblasGemm<float> sgemm = nullptr;
  CblasGemm<double> dgemm = nullptr;
  void (*setNumThreads)(int) = nullptr;
  /// An OpenMP build keeps the thread count per thread: each thread that
  /// calls sets it. Other builds keep one for the process, set at loading.
  bool perThread = false;
  std::string error;

  template <typename T> CblasGemm<T> gemm() const;
};
template <> CblasGemm<float> OpenBlas::gemm<float>() const { return sgemm; }
template <> CblasGemm<double> OpenBlas::gemm<double>() const { return dgemm; }

const OpenBlas &openblas() {
  static const OpenBlas library = [] {
    OpenBlas lib;
    void *handle = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      lib.error = dlerror(); // Copied: glibc frees it at the next call.
      return lib;
    }
    lib.sgemm =
        reinterpret_cast<CblasGemm<float>>(dlsym(handle, "cblas_sgemm"));
    lib.dgemm =
        reinterpret_cast<CblasGemm<double>>(dlsym(handle, "cblas_dgemm"));
    lib.setNumThreads = reinterpret_cast<void (*)(int)>(
        dlsym(handle, "openblas_set_num_threads"));
    auto parallel =
        reinterpret_cast<int (*)()>(dlsym(handle, "openblas_get_parallel"));
    if (!lib.sgemm || !lib.dgemm || !lib.setNumThreads || !parallel) {
      lib = OpenBlas();
      lib.error = "libopenblas.so.0 lacks cblas_sgemm, cblas_dgemm, "
                  "openblas_set_num_threads or openblas_get_parallel";
      return lib;
    }
    constexpr int kOpenMp = 2; // openblas_get_parallel's answers: 0, 1, 2.
    lib.perThread = parallel() == kOpenMp;
    lib.setNumThreads(1);
    return lib;
  }();
  return library;
}

/// BLAS's description of an operand of `rows` x `cols` elements: row-major
/// with leading dimension `ld`, or transposed (stored column-major). False
/// where BLAS cannot take it.
template <typename T>
bool blasLayout(MatrixView<T> view, int64_t rows, int64_t cols, int &trans,
                int &ld) {
  if (view.colStride == 1 && view.rowStride >= std::max<int64_t>(1, cols) &&
      view.rowStride <= INT_MAX) {
    trans = kNoTrans;
    ld = static_cast<int>(view.rowStride);
    return true;
  }
  if (view.rowStride == 1 && view.colStride >= std::max<int64_t>(1, rows) &&
      view.colStride <= INT_MAX) {
    trans = kTrans;
    ld = static_cast<int>(view.colStride);
    return true;
  }
  return false;
}

} // namespace

bool openblasLoaded(const char **why) {
  const OpenBlas &lib = openblas();
  if (why)
    *why = lib.error.c_str();
  return lib.sgemm != nullptr;
}

template <typename T>
bool openblasGemm(MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool accumulate) {
  const OpenBlas &lib = openblas();
  int transA, lda, transB, ldb;
  if (!lib.sgemm || std::max({m, n, k}) > INT_MAX ||
      ldc < std::max<int64_t>(1, n) || ldc > INT_MAX ||
      !blasLayout(a, m, k, transA, lda) || !blasLayout(b, k, n, transB, ldb))
    return false;
  thread_local bool oneThread = false;
  if (lib.perThread && !oneThread) {
    lib.setNumThreads(1);
    oneThread = true;
  }
  lib.gemm<T>()(kRowMajor, transA, transB, static_cast<int>(m),
                static_cast<int>(n), static_cast<int>(k), T(1), a.data, lda,
                b.data, ldb, T(accumulate ? 1 : 0), c, static_cast<int>(ldc));
  return true;
}

template bool openblasGemm<float>(MatrixView<float>, MatrixView<float>, float *,
                                  int64_t, int64_t, int64_t, int64_t, bool);
template bool openblasGemm<double>(MatrixView<double>, MatrixView<double>,
                                   double *, int64_t, int64_t, int64_t,
                                   int64_t, bool);

} // namespace pcc::runtime
