//===- DevicePoolTest.cpp - Tests of pcc_run_devices ----------------------===//
//
// Checks the device pool: every device runs exactly once per call, on the
// same persistent thread every time; the pool grows only when a call needs
// more devices; threads are pinned to distinct cores; devices beyond the
// host threads share them in blocks, as fibers that switch in collectives
// and have deep stacks; launches that do little run on the calling thread
// alone; invalid and nested
// calls fail with an error instead of hanging; and calls from several host
// threads are serialized.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "gtest/gtest.h"

#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
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
  HostThreads threadEach(64);
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

TEST(DevicePool, DevicesBeyondHostThreadsShareThemInBlocks) {
  constexpr int64_t kThreads = 3;
  HostThreads limit(kThreads);
  for (int64_t n : {1, 2, 3, 4, 7, 16}) {
    std::vector<pthread_t> threadOf(n);
    std::vector<std::atomic<int>> hits(n);
    ASSERT_EQ(runDevices(n,
                         [&](int64_t d) {
                           threadOf[d] = pthread_self();
                           hits[d].fetch_add(1);
                         }),
              0);
    // Thread t runs devices [t * n / T, (t + 1) * n / T), the caller t = 0.
    int64_t threads = std::min(n, kThreads);
    auto blockOf = [&](int64_t d) {
      int64_t t = 0;
      while ((t + 1) * n / threads <= d)
        ++t;
      return t;
    };
    EXPECT_TRUE(pthread_equal(threadOf[0], pthread_self()));
    for (int64_t d = 0; d < n; ++d) {
      EXPECT_EQ(hits[d].load(), 1) << "device " << d << " of " << n;
      for (int64_t e = 0; e < d; ++e)
        EXPECT_EQ(pthread_equal(threadOf[d], threadOf[e]) != 0,
                  blockOf(d) == blockOf(e))
            << "devices " << e << " and " << d << " of " << n;
    }
  }
}

#if defined(__x86_64__)
TEST(DevicePool, SmallLaunchesRunOnTheCallingThread) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || std::getenv("PCC_HOST_THREADS") ||
      std::getenv("PCC_SERIAL_WORK"))
    GTEST_SKIP() << "needs two cores and the default thread settings";
  HostThreads limit(2);
  std::vector<pthread_t> threadOf(2);
  auto body = [](void *threads, int64_t d) {
    static_cast<pthread_t *>(threads)[d] = pthread_self();
  };
  // Until a pmap has been timed (PmapsRunTheFasterWay) the budget is 512
  // elements, of which each device's call costs 64: two devices run on one
  // thread up to 512 / 2 - 64 = 192 each.
  for (int64_t work : {int64_t(0), int64_t(192), int64_t(193),
                       int64_t(1) << 40, int64_t(-1)}) {
    pcc_launch(2, body, threadOf.data(), work);
    EXPECT_TRUE(pthread_equal(threadOf[0], pthread_self()));
    EXPECT_EQ(pthread_equal(threadOf[1], pthread_self()) != 0,
              work >= 0 && work <= 192)
        << "work " << work;
  }
}
#endif

TEST(DevicePool, PmapsRunTheFasterWay) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || std::getenv("PCC_HOST_THREADS") ||
      std::getenv("PCC_SERIAL_WORK"))
    GTEST_SKIP() << "needs two cores and the default thread settings";
  HostThreads limit(2);
  struct Run {
    pthread_t caller;
    std::vector<pthread_t> threadOf = std::vector<pthread_t>(2);
  } run{pthread_self()};
  // Each device sleeps: on two threads a launch takes half as long, though
  // the compiler counted no work. (Long enough that waking a thread on a
  // busy machine, as under lit, costs much less.)
  auto sleeper = [](void *args, int64_t d) {
    static_cast<Run *>(args)->threadOf[d] = pthread_self();
    usleep(20000);
  };
  // A device away from the calling thread sleeps: one thread is faster,
  // though the compiler counted more work than the default budget.
  auto homebody = [](void *args, int64_t d) {
    auto *run = static_cast<Run *>(args);
    run->threadOf[d] = pthread_self();
    if (!pthread_equal(pthread_self(), run->caller))
      usleep(2000);
  };
  // More launches than the warm-up and the timed ones (32 + 48).
  for (int launch = 0; launch < 84; ++launch) {
    pcc_launch(2, sleeper, &run, /*work=*/0);
    pcc_launch(2, homebody, &run, /*work=*/1000);
  }
  pcc_launch(2, sleeper, &run, 0);
  EXPECT_FALSE(pthread_equal(run.threadOf[1], run.caller));
  pcc_launch(2, homebody, &run, 1000);
  EXPECT_TRUE(pthread_equal(run.threadOf[1], run.caller));
}

/// The CPUs each of two devices on two threads may run on.
std::vector<cpu_set_t> cpusOfTwoDevices() {
  HostThreads two(2);
  std::vector<cpu_set_t> cpus(2);
  EXPECT_EQ(runDevices(2,
                       [&](int64_t d) {
                         sched_getaffinity(0, sizeof(cpu_set_t), &cpus[d]);
                       }),
            0);
  return cpus;
}

TEST(DevicePool, ThreadsArePinnedToDistinctCores) {
  // (This thread's own affinity is no guide: earlier runs pinned it.)
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || std::getenv("PCC_PIN_THREADS"))
    GTEST_SKIP() << "needs two cores and the default PCC_PIN_THREADS";
  std::vector<cpu_set_t> cpus = cpusOfTwoDevices();
  EXPECT_EQ(CPU_COUNT(&cpus[0]), 1);
  EXPECT_EQ(CPU_COUNT(&cpus[1]), 1);
  EXPECT_FALSE(CPU_EQUAL(&cpus[0], &cpus[1]));
}

TEST(DevicePool, UnpinnedThreadsKeepToSharesOfTheCores) {
  // PCC_PIN_THREADS is read once per process: the check runs in another.
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
    GTEST_SKIP() << "needs two cores";
  pid_t child = spawnTest("DevicePool.DISABLED_UnpinnedShares",
                          {"PCC_PIN_THREADS=0"});
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

// Run by UnpinnedThreadsKeepToSharesOfTheCores only: unpinned, the two
// threads of a launch keep to disjoint sets of the allowed cores that
// together cover them, so that they can never share one.
TEST(DevicePool, DISABLED_UnpinnedShares) {
  // This process inherits the affinity of the thread that started it, which
  // earlier tests may have pinned: asking for every CPU gets back all that
  // the process may use.
  cpu_set_t allowed;
  std::memset(&allowed, 0xff, sizeof(allowed));
  ASSERT_EQ(sched_setaffinity(0, sizeof(allowed), &allowed), 0);
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  if (CPU_COUNT(&allowed) < 2)
    GTEST_SKIP() << "needs two cores";
  std::vector<cpu_set_t> cpus = cpusOfTwoDevices();
  cpu_set_t both, common;
  CPU_OR(&both, &cpus[0], &cpus[1]);
  CPU_AND(&common, &cpus[0], &cpus[1]);
  EXPECT_GT(CPU_COUNT(&cpus[0]), 0);
  EXPECT_GT(CPU_COUNT(&cpus[1]), 0);
  EXPECT_EQ(CPU_COUNT(&common), 0);
  EXPECT_TRUE(CPU_EQUAL(&both, &allowed));
  // Each keeps half of them (or one more).
  EXPECT_LE(std::abs(CPU_COUNT(&cpus[0]) - CPU_COUNT(&cpus[1])), 1);
}

TEST(DevicePool, FibersSwitchInCollectives) {
  // One thread runs all devices: each must let the others run while it
  // waits in a collective, and its call site must survive their switches.
  HostThreads one(1);
  constexpr int64_t kDevices = 5;
  std::vector<int64_t> sums(kDevices * 100);
  ASSERT_EQ(runDevices(kDevices,
                       [&](int64_t d) {
                         int64_t dims[1] = {kDevices};
                         for (int it = 0; it < 100; ++it) {
                           int64_t v = d * it;
                           pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_I64, &v,
                                          &sums[d * 100 + it], 1);
                         }
                       }),
            0);
  for (int64_t d = 0; d < kDevices; ++d)
    for (int it = 0; it < 100; ++it)
      ASSERT_EQ(sums[d * 100 + it], it * (0 + 1 + 2 + 3 + 4)) << "device " << d;
}

TEST(DevicePool, FibersHaveDeepStacks) {
  // Generated code may keep large buffers on the stack: a fiber gets as much
  // as a device thread.
  HostThreads one(1);
  std::vector<int> seen(3);
  ASSERT_EQ(runDevices(3,
                       [&](int64_t d) {
                         volatile char big[4 << 20];
                         big[0] = char(d);
                         big[sizeof(big) - 1] = char(d + 1);
                         seen[d] = big[0] + big[sizeof(big) - 1];
                       }),
            0);
  EXPECT_EQ(seen, (std::vector<int>{1, 3, 5}));
}

TEST(DevicePool, RejectsNegativeHostThreads) {
  testing::internal::CaptureStderr();
  EXPECT_NE(pcc_set_host_threads(-1), 0);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("pcc_set_host_threads"), std::string::npos) << err;
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
