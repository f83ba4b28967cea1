//===- GemmTest.cpp - Tests of the runtime's matrix multiplication --------===//
//
// The builtin GEMM, OpenBLAS's (where it is installed) and the dispatch
// between them against a plain triple loop, on small integers (every product
// and sum is exact in f32 and f64, so the blocked order and FMA must give the
// same bits): shapes around every block edge, transposed operands, leading
// dimensions larger than the rows, empty shapes, accumulation into C, and
// the entry points generated code and C callers use.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using pcc::runtime::MatrixView;

/// One implementation of C += A * B and C = A * B (Gemm.h): the builtin
/// GEMM, OpenBLAS's, or the dispatch between them.
enum class Impl { Builtin, OpenBlas, Dispatch };

template <typename T>
void multiply(Impl impl, MatrixView<T> a, MatrixView<T> b, T *c, int64_t ldc,
              int64_t m, int64_t n, int64_t k, bool accumulate) {
  switch (impl) {
  case Impl::Builtin:
    return pcc::runtime::builtinGemm(a, b, c, ldc, m, n, k, accumulate);
  case Impl::OpenBlas:
    ASSERT_TRUE(pcc::runtime::openblasGemm(a, b, c, ldc, m, n, k, accumulate));
    return;
  case Impl::Dispatch:
    return pcc::runtime::gemm(a, b, c, ldc, m, n, k, accumulate);
  }
}

template <typename T>
std::vector<T> randomMatrix(int64_t rows, int64_t ld, std::mt19937 &rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  std::vector<T> m(static_cast<size_t>(std::max<int64_t>(rows, 1) * ld));
  for (T &x : m)
    x = T(value(rng));
  return m;
}

/// Checks C += A * B (or C = A * B, C's old values never read) for an m x k
/// by k x n product with padded rows, each operand stored as it is or
/// transposed (then read through a view whose row stride is 1).
template <typename T>
void checkShape(Impl impl, int64_t m, int64_t n, int64_t k,
                bool transposeA = false, bool transposeB = false,
                bool accumulate = true) {
  std::mt19937 rng(static_cast<unsigned>(m * 1000003 + n * 1009 + k));
  // Stored rows and columns, and the padded leading dimensions.
  int64_t aRows = transposeA ? k : m, aCols = transposeA ? m : k;
  int64_t bRows = transposeB ? n : k, bCols = transposeB ? k : n;
  int64_t lda = aCols + 3, ldb = bCols + 5, ldc = n + 1;
  std::vector<T> a = randomMatrix<T>(aRows, lda, rng);
  std::vector<T> b = randomMatrix<T>(bRows, ldb, rng);
  std::vector<T> c = randomMatrix<T>(m, ldc, rng);
  MatrixView<T> va = transposeA ? MatrixView<T>{a.data(), 1, lda}
                                : MatrixView<T>{a.data(), lda, 1};
  MatrixView<T> vb = transposeB ? MatrixView<T>{b.data(), 1, ldb}
                                : MatrixView<T>{b.data(), ldb, 1};
  std::vector<T> want = c;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T sum = accumulate ? want[i * ldc + j] : T(0);
      for (int64_t p = 0; p < k; ++p)
        sum += va.data[i * va.rowStride + p * va.colStride] *
               vb.data[p * vb.rowStride + j * vb.colStride];
      want[i * ldc + j] = sum;
    }
  multiply<T>(impl, va, vb, c.data(), ldc, m, n, k, accumulate);
  // Padding included: nothing outside the n columns may change.
  for (int64_t i = 0; i < m * ldc; ++i)
    ASSERT_EQ(c[i], want[i])
        << "m=" << m << " n=" << n << " k=" << k << " transposed " << transposeA
        << transposeB << (accumulate ? " C +=" : " C =") << " at row "
        << i / ldc << ", column " << i % ldc;
}

template <typename T> void checkShapes(Impl impl) {
  // Around the micro-tile (6 x 16 / 6 x 8), the KC (256) and MC (96) blocks.
  // Written over C, the first block of k writes and the next ones add.
  for (int64_t m : {1, 5, 6, 7, 95, 97})
    for (int64_t n : {1, 7, 8, 16, 17, 33})
      for (int64_t k : {1, 3, 255, 257})
        for (bool accumulate : {true, false})
          checkShape<T>(impl, m, n, k, false, false, accumulate);
  for (bool transposeA : {false, true})
    for (bool transposeB : {false, true})
      for (int64_t m : {1, 7, 97})
        for (int64_t n : {1, 17})
          checkShape<T>(impl, m, n, 257, transposeA, transposeB,
                        /*accumulate=*/m != 7);
}

/// Each implementation, the OpenBLAS one where the library loads.
class Gemm : public testing::TestWithParam<Impl> {
protected:
  void SetUp() override {
    if (GetParam() == Impl::OpenBlas && !pcc::runtime::openblasLoaded())
      GTEST_SKIP() << "OpenBLAS (libopenblas.so.0) is not installed";
  }
};

TEST_P(Gemm, F32MatchesLoops) { checkShapes<float>(GetParam()); }
TEST_P(Gemm, F64MatchesLoops) { checkShapes<double>(GetParam()); }

TEST_P(Gemm, LargeF32MatchesLoops) {
  // Several NC (4096-column) and MC blocks.
  checkShape<float>(GetParam(), 200, 4100, 20);
  checkShape<float>(GetParam(), 200, 4100, 20, true, true);
}

TEST_P(Gemm, ThreadsAtOnce) {
  // Devices are threads that multiply at the same time, each its own
  // matrices (OpenBLAS on one thread per caller).
  Impl impl = GetParam();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back(
        [=] { checkShape<float>(impl, 61 + t, 45, 300, t & 1, t & 2); });
  for (std::thread &thread : threads)
    thread.join();
}

std::string implName(const testing::TestParamInfo<Impl> &info) {
  switch (info.param) {
  case Impl::Builtin:
    return "Builtin";
  case Impl::OpenBlas:
    return "OpenBlas";
  case Impl::Dispatch:
    return "Dispatch";
  }
  return "";
}

INSTANTIATE_TEST_SUITE_P(Implementations, Gemm,
                         testing::Values(Impl::Builtin, Impl::OpenBlas,
                                         Impl::Dispatch),
                         implName);

TEST(GemmOpenBlas, TakesOnlyWhatBlasCan) {
  if (!pcc::runtime::openblasLoaded())
    GTEST_SKIP() << "OpenBLAS (libopenblas.so.0) is not installed";
  std::vector<float> a(16, 1), b(16, 1), c(16, 0);
  // Neither dimension contiguous, a leading dimension shorter than a row,
  // or a row stride of 0 (a broadcast row): BLAS cannot, the builtin GEMM
  // does.
  EXPECT_FALSE(pcc::runtime::openblasGemm<float>(
      {a.data(), 4, 2}, {b.data(), 4, 1}, c.data(), 4, 2, 4, 2, true));
  EXPECT_FALSE(pcc::runtime::openblasGemm<float>(
      {a.data(), 1, 1}, {b.data(), 4, 1}, c.data(), 4, 4, 4, 2, true));
  EXPECT_FALSE(pcc::runtime::openblasGemm<float>(
      {a.data(), 0, 1}, {b.data(), 4, 1}, c.data(), 4, 4, 4, 2, false));
  EXPECT_EQ(c, std::vector<float>(16, 0));
  pcc::runtime::gemm<float>({a.data(), 0, 1}, {b.data(), 4, 1}, c.data(), 4, 4,
                            4, 2, true);
  EXPECT_EQ(c, std::vector<float>(16, 2));
}

TEST(GemmEntry, EmptyShapesLeaveCAlone) {
  std::vector<float> a(4, 1), b(4, 1), c(4, 7);
  pcc_gemm_f32(a.data(), 2, b.data(), 2, c.data(), 2, 2, 2, 0);
  pcc_gemm_f32(a.data(), 2, b.data(), 2, c.data(), 2, 0, 2, 2);
  EXPECT_EQ(c, std::vector<float>(4, 7));
}

TEST(GemmEntry, EmptySumWrittenOverCIsZero) {
  // C = A * B with k = 0 is zeros (a matmul whose zero fill was dropped);
  // the padding column stays. (gemm() answers it before OpenBLAS.)
  for (Impl impl : {Impl::Builtin, Impl::Dispatch}) {
    std::vector<float> a(1, 1), b(1, 1), c = {7, 7, 7, 7, 7, 7};
    multiply<float>(impl, {a.data(), 1, 1}, {b.data(), 3, 1}, c.data(), 3, 2,
                    2, 0, /*accumulate=*/false);
    EXPECT_EQ(c, (std::vector<float>{0, 0, 7, 0, 0, 7}));
    multiply<float>(impl, {a.data(), 1, 1}, {b.data(), 3, 1}, c.data(), 3, 2,
                    2, 0, /*accumulate=*/true);
    EXPECT_EQ(c, (std::vector<float>{0, 0, 7, 0, 0, 7}));
  }
}

TEST(GemmEntry, MemRefEntryReadsDescriptors) {
  // A 2 x 3 view at offset 1 of a row-major buffer with 4 columns.
  std::vector<float> a = {0, 1, 2, 3, 0, 4, 5, 6};
  std::vector<float> b = {1, 0, 0, 1, 1, 1}; // 3 x 2
  std::vector<float> c = {10, 20, 30, 40};   // 2 x 2
  struct Descriptor {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  };
  Descriptor da{a.data(), a.data(), 1, {2, 3}, {4, 1}};
  Descriptor db{b.data(), b.data(), 0, {3, 2}, {2, 1}};
  Descriptor dc{c.data(), c.data(), 0, {2, 2}, {2, 1}};
  _mlir_ciface_pcc_mlir_matmul_f32(&da, &db, &dc, /*accumulate=*/1);
  // [[1 2 3] [4 5 6]] * [[1 0] [0 1] [1 1]] = [[4 5] [10 11]].
  EXPECT_EQ(c, (std::vector<float>{14, 25, 40, 51}));
  // The same A read transposed: the 3 x 2 view of its storage as columns
  // (what memref.transpose of a 2 x 3 buffer gives), times a 2 x 2 B.
  std::vector<float> stored = {1, 2, 3, 4, 5, 6}; // 2 x 3, row-major
  std::vector<float> d = {1, 0, 0, 1}, e(6, 0);
  Descriptor dt{stored.data(), stored.data(), 0, {3, 2}, {1, 3}};
  Descriptor dd{d.data(), d.data(), 0, {2, 2}, {2, 1}};
  Descriptor de{e.data(), e.data(), 0, {3, 2}, {2, 1}};
  _mlir_ciface_pcc_mlir_matmul_f32(&dt, &dd, &de, /*accumulate=*/1);
  EXPECT_EQ(e, (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // Written over C: its old values are not read.
  e.assign(6, std::nanf(""));
  _mlir_ciface_pcc_mlir_matmul_f32(&dt, &dd, &de, /*accumulate=*/0);
  EXPECT_EQ(e, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

} // namespace
