//===- MemoryTest.cpp - generated code's host buffers and the limit ------===//
//
// The runtime's generic allocation functions on the host: aligned buffers,
// what the program holds counted against pcc_set_memory_limit, and a
// buffer over the limit ending the process with status 1 and the sizes.
// Death tests: built into the plain runtime-tests only.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace {

struct LimitGuard {
  explicit LimitGuard(int64_t bytes) { pcc_set_memory_limit(bytes); }
  ~LimitGuard() { pcc_set_memory_limit(0); }
};

TEST(Memory, BuffersAreAlignedAndWritable) {
  for (uint64_t alignment : {1, 8, 64, 128, 4096}) {
    auto *data = static_cast<uint8_t *>(
        _mlir_memref_to_llvm_aligned_alloc(alignment, 1000));
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % alignment, 0u);
    std::memset(data, 0xab, 1000);
    _mlir_memref_to_llvm_free(data);
  }
  _mlir_memref_to_llvm_free(nullptr);
}

TEST(Memory, DefaultLimitIsThePhysicalMemory) {
  EXPECT_GT(pcc_memory_limit(), int64_t(1) << 26);
}

TEST(Memory, FreedBuffersNoLongerCount) {
  LimitGuard guard(1 << 20);
  // 100 x 600 KiB in turn fit under 1 MiB only if each free is counted.
  for (int i = 0; i < 100; ++i)
    _mlir_memref_to_llvm_free(
        _mlir_memref_to_llvm_aligned_alloc(64, 600 << 10));
}

TEST(MemoryDeathTest, ABufferOverTheLimitEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        pcc_set_memory_limit(1 << 20);
        void *held = _mlir_memref_to_llvm_aligned_alloc(64, 600 << 10);
        _mlir_memref_to_llvm_aligned_alloc(64, 600 << 10);
        _mlir_memref_to_llvm_free(held);
      },
      testing::ExitedWithCode(1),
      "pcc: error: the program asked for a buffer of 614400 bytes while "
      "holding 614400, more than the memory limit of 1048576 bytes allows");
}

TEST(MemoryDeathTest, AnImpossibleBufferEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(_mlir_memref_to_llvm_aligned_alloc(64, uint64_t(1) << 62),
              testing::ExitedWithCode(1),
              "pcc: error: the program asked for a buffer of "
              "4611686018427387904 bytes");
}

} // namespace
