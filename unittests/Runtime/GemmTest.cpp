//===- GemmTest.cpp - Tests of the runtime's matrix multiplication --------===//
//
// pcc_gemm_* against a plain triple loop, on small integers (every product
// and sum is exact in f32 and f64, so the blocked order and FMA must give the
// same bits): shapes around every block edge, leading dimensions larger
// than the rows, empty shapes, accumulation into C, and the memref entry
// point generated code calls.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

template <typename T>
void gemm(const T *a, int64_t lda, const T *b, int64_t ldb, T *c, int64_t ldc,
          int64_t m, int64_t n, int64_t k);
template <>
void gemm<float>(const float *a, int64_t lda, const float *b, int64_t ldb,
                 float *c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  pcc_gemm_f32(a, lda, b, ldb, c, ldc, m, n, k);
}
template <>
void gemm<double>(const double *a, int64_t lda, const double *b, int64_t ldb,
                  double *c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  pcc_gemm_f64(a, lda, b, ldb, c, ldc, m, n, k);
}

template <typename T>
std::vector<T> randomMatrix(int64_t rows, int64_t ld, std::mt19937 &rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  std::vector<T> m(static_cast<size_t>(std::max<int64_t>(rows, 1) * ld));
  for (T &x : m)
    x = T(value(rng));
  return m;
}

/// Checks C += A * B for an m x k by k x n product with padded rows.
template <typename T> void checkShape(int64_t m, int64_t n, int64_t k) {
  std::mt19937 rng(static_cast<unsigned>(m * 1000003 + n * 1009 + k));
  int64_t lda = k + 3, ldb = n + 5, ldc = n + 1;
  std::vector<T> a = randomMatrix<T>(m, lda, rng);
  std::vector<T> b = randomMatrix<T>(k, ldb, rng);
  std::vector<T> c = randomMatrix<T>(m, ldc, rng);
  std::vector<T> want = c;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T sum = want[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * lda + p] * b[p * ldb + j];
      want[i * ldc + j] = sum;
    }
  gemm<T>(a.data(), lda, b.data(), ldb, c.data(), ldc, m, n, k);
  // Padding included: nothing outside the n columns may change.
  for (int64_t i = 0; i < m * ldc; ++i)
    ASSERT_EQ(c[i], want[i]) << "m=" << m << " n=" << n << " k=" << k
                             << " at row " << i / ldc << ", column "
                             << i % ldc;
}

template <typename T> void checkShapes() {
  // Around the micro-tile (6 x 16 / 6 x 8), the KC (256) and MC (96) blocks.
  for (int64_t m : {1, 5, 6, 7, 95, 97})
    for (int64_t n : {1, 7, 8, 16, 17, 33})
      for (int64_t k : {1, 3, 255, 257})
        checkShape<T>(m, n, k);
}

TEST(Gemm, F32MatchesLoops) { checkShapes<float>(); }
TEST(Gemm, F64MatchesLoops) { checkShapes<double>(); }

TEST(Gemm, LargeF32MatchesLoops) {
  // Several NC (4096-column) and MC blocks.
  checkShape<float>(200, 4100, 20);
}

TEST(Gemm, EmptyShapesLeaveCAlone) {
  std::vector<float> a(4, 1), b(4, 1), c(4, 7);
  pcc_gemm_f32(a.data(), 2, b.data(), 2, c.data(), 2, 2, 2, 0);
  pcc_gemm_f32(a.data(), 2, b.data(), 2, c.data(), 2, 0, 2, 2);
  EXPECT_EQ(c, std::vector<float>(4, 7));
}

TEST(Gemm, MemRefEntryReadsDescriptors) {
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
  _mlir_ciface_pcc_mlir_matmul_f32(&da, &db, &dc);
  // [[1 2 3] [4 5 6]] * [[1 0] [0 1] [1 1]] = [[4 5] [10 11]].
  EXPECT_EQ(c, (std::vector<float>{14, 25, 40, 51}));
}

} // namespace
