//===- DevicePoolTest.cpp - Tests of pcc_run_devices ----------------------===//
//
// Checks the device pool: every device runs exactly once per call, on the
// same persistent thread every time; the pool grows only when a call needs
// more devices; invalid and nested calls fail with an error instead of
// hanging; and calls from several host threads are serialized.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "gtest/gtest.h"

#include <pthread.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace pcc::test;

namespace {

TEST(DevicePool, RunsEveryDeviceOnce) {
  for (int64_t n = 1; n <= 16; ++n) {
    std::vector<std::atomic<int>> hits(n);
    ASSERT_EQ(runDevices(n, [&](int64_t d) { hits[d].fetch_add(1); }), 0);
    for (int64_t d = 0; d < n; ++d)
      EXPECT_EQ(hits[d].load(), 1) << "device " << d << " of " << n;
  }
}

TEST(DevicePool, ZeroDevicesIsANoOp) {
  bool ran = false;
  EXPECT_EQ(runDevices(0, [&](int64_t) { ran = true; }), 0);
  EXPECT_FALSE(ran);
}

TEST(DevicePool, RejectsInvalidArguments) {
  testing::internal::CaptureStderr();
  EXPECT_NE(runDevices(-1, [](int64_t) {}), 0);
  EXPECT_NE(pcc_run_devices(2, nullptr, nullptr), 0);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("pcc runtime error"), std::string::npos) << err;
}

TEST(DevicePool, RejectsNestedRuns) {
  std::atomic<int32_t> inner[2] = {{-1}, {-1}};
  testing::internal::CaptureStderr();
  ASSERT_EQ(
      runDevices(2,
                 [&](int64_t d) { inner[d] = runDevices(2, [](int64_t) {}); }),
      0);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(inner[0].load(), 0);
  EXPECT_NE(inner[1].load(), 0);
  EXPECT_NE(err.find("nested"), std::string::npos) << err;
}

TEST(DevicePool, ThreadsArePersistentAndReused) {
  std::vector<pthread_t> first(8), second(8);
  ASSERT_EQ(runDevices(8, [&](int64_t d) { first[d] = pthread_self(); }), 0);
  int64_t alive = pcc_runtime_num_threads();
  EXPECT_GE(alive, 7);
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(runDevices(1 + i % 8, [](int64_t) {}), 0);
  ASSERT_EQ(runDevices(8, [&](int64_t d) { second[d] = pthread_self(); }), 0);
  EXPECT_EQ(pcc_runtime_num_threads(), alive);
  // Device 0 runs on the caller, every other device on its own thread.
  EXPECT_TRUE(pthread_equal(first[0], pthread_self()));
  for (int d = 0; d < 8; ++d) {
    EXPECT_TRUE(pthread_equal(first[d], second[d])) << "device " << d;
    if (d > 0) {
      EXPECT_FALSE(pthread_equal(first[d], pthread_self()));
    }
    for (int e = 0; e < d; ++e)
      EXPECT_FALSE(pthread_equal(first[d], first[e]));
  }
  // A larger call grows the pool to exactly what it needs: one thread per
  // device but the caller's.
  int64_t more = alive + 3;
  ASSERT_EQ(runDevices(more + 1, [](int64_t) {}), 0);
  EXPECT_EQ(pcc_runtime_num_threads(), more);
  ASSERT_EQ(runDevices(more + 1, [](int64_t) {}), 0);
  EXPECT_EQ(pcc_runtime_num_threads(), more);
}

TEST(DevicePool, CallsFromSeveralHostThreadsAreSerialized) {
  // Two host threads share the same device threads; every run of each must
  // happen exactly once and its collectives must see only its own devices.
  constexpr int kRuns = 200;
  auto caller = [](std::vector<int> *hits, int *failures) {
    for (int i = 0; i < kRuns; ++i) {
      int32_t rc = runDevices(4, [&](int64_t d) {
        int64_t dims[1] = {4}, v = d, sum = 0;
        pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_I64, &v, &sum, 1);
        if (sum == 0 + 1 + 2 + 3)
          ++(*hits)[d];
      });
      if (rc != 0)
        ++*failures;
    }
  };
  std::vector<int> hitsA(4), hitsB(4);
  int failuresA = 0, failuresB = 0;
  std::thread a(caller, &hitsA, &failuresA), b(caller, &hitsB, &failuresB);
  a.join();
  b.join();
  EXPECT_EQ(failuresA + failuresB, 0);
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(hitsA[d], kRuns) << "device " << d;
    EXPECT_EQ(hitsB[d], kRuns) << "device " << d;
  }
}

} // namespace
