//===- CudaErrorsTest.cpp - The cuda platform's fatal errors -------------===//
//
// Generated code cannot handle a failure of the cuda platform, so the
// runtime prints "pcc: error: ..." and ends the process with status 1. Death
// tests of the errors that need no GPU: built into the plain runtime-tests
// only, like TimeoutTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "CudaPlatform.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <gtest/gtest.h>

namespace {

bool gpuPresent() {
  char message[512];
  return pcc_cuda_probe(message, sizeof(message)) > 0;
}

TEST(CudaErrorsDeathTest, AlignmentAbove256IsRefused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(pcc::runtime::cudaGenericAlloc(512, 8),
              testing::ExitedWithCode(1),
              "pcc: error: a buffer alignment of 512 bytes is not supported");
}

TEST(CudaErrorsDeathTest, AllocationWithoutGpu) {
  if (gpuPresent())
    GTEST_SKIP() << "a GPU is present";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(pcc_cuda_alloc(16), testing::ExitedWithCode(1),
              "pcc: error: .*--backend=cpu");
}

void emptyBody(void *, int64_t) {}

TEST(CudaErrorsDeathTest, LaunchWithoutGpu) {
  if (gpuPresent())
    GTEST_SKIP() << "a GPU is present";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(pcc_cuda_launch(2, emptyBody, nullptr, -1),
              testing::ExitedWithCode(1), "pcc: error: .*--backend=cpu");
}

} // namespace
