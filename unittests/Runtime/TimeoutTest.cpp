//===- TimeoutTest.cpp - a collective that never completes ---------------===//
//
// A device that waits for peers that never come must not hang: after
// PCC_COLLECTIVE_TIMEOUT seconds the process ends with status 1 and says
// which collective and which devices never arrived. Devices that meet in
// different collectives (kind, element type, count) stop before touching
// each other's buffers; a device ahead in a group's count waits for the
// others. Death tests: built into the plain runtime-tests only
// (they re-execute the binary, which the sanitizer builds would make slow
// and noisy).
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "RuntimeTestUtil.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

/// Device 0 of a 2-device group calls psum; device 1 never does.
void reduceWithoutPeer() {
  setenv("PCC_COLLECTIVE_TIMEOUT", "0.2", 1);
  int64_t dims[] = {2};
  float value = 1;
  float result = 0;
  pcc_all_reduce(0, 1, dims, 1, PCC_SUM, PCC_F32, &value, &result, 1);
}

TEST(CollectiveTimeoutDeathTest, MissingPeerEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(reduceWithoutPeer(), testing::ExitedWithCode(1),
              "pcc_all_reduce \\(no source location\\): device 0 waited "
              "more than 0.2 s for the other devices of its group \\(at "
              "collective #1 of the group\\); never arrived: device 1, "
              "which is not in a collective");
}

/// One thread runs 3 devices as fibers; device 2 never calls the psum of
/// all three: the others wait in turn, without hanging the thread.
void reduceWithoutPeerAsFibers() {
  setenv("PCC_COLLECTIVE_TIMEOUT", "0.2", 1);
  pcc::test::HostThreads one(1);
  pcc::test::runDevices(3, [](int64_t d) {
    if (d == 2)
      return;
    int64_t dims[] = {3};
    float value = 1;
    float result = 0;
    pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32, &value, &result, 1);
  });
}

TEST(CollectiveTimeoutDeathTest, MissingPeerOfFibersEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(reduceWithoutPeerAsFibers(), testing::ExitedWithCode(1),
              "device [01] waited more than 0.2 s for the other devices of "
              "its group .*never arrived: device 2, which is not in a "
              "collective");
}

/// On a 2 x 3 grid, device 1 = (0, 1) gathers over axis 0 with device
/// 4 = (1, 1), which never calls.
void gatherWithoutPeerOnGrid() {
  setenv("PCC_COLLECTIVE_TIMEOUT", "0.2", 1);
  int64_t dims[] = {2, 3};
  float value = 1;
  float result[2] = {0, 0};
  pcc_all_gather(1, 2, dims, 1, PCC_F32, &value, result, 1);
}

TEST(CollectiveTimeoutDeathTest, MissingPeerIsNamedByGridIndex) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(gatherWithoutPeerOnGrid(), testing::ExitedWithCode(1),
              "pcc_all_gather \\(no source location\\): device 1 waited .* "
              "never arrived: device 4, which is not in a collective");
}

/// Device 1 sums 2 elements while device 0 sums 1: both stop at once.
void mismatchedCounts() {
  int64_t dims[] = {2};
  float in[2] = {1, 2}, out[2] = {0, 0};
  pcc::test::runDevices(2, [&](int64_t d) {
    pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32, in, out, d + 1);
  });
}

TEST(CollectiveFingerprintDeathTest, DifferentCountsStopTheGroup) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(mismatchedCounts(), testing::ExitedWithCode(1),
              "devices of a group met in different collectives: device [01] "
              "runs pcc_all_reduce \\(no source location\\) and device [01] "
              "runs pcc_all_reduce \\(no source location\\) \\(collective #1 "
              "of their group\\)");
}

/// Device 0 gathers where device 1 reduces: the kinds differ.
void mismatchedKinds() {
  int64_t dims[] = {2};
  float in = 1, out[2] = {0, 0};
  pcc::test::runDevices(2, [&](int64_t d) {
    if (d == 0)
      pcc_all_gather(d, 1, dims, 1, PCC_F32, &in, out, 1);
    else
      pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32, &in, out, 1);
  });
}

TEST(CollectiveFingerprintDeathTest, DifferentKindsStopTheGroup) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(mismatchedKinds(), testing::ExitedWithCode(1),
              "devices of a group met in different collectives");
}

/// Device 1 counts one collective more in the group than device 0 (which
/// members that run the same collectives never do): members meet only when
/// they announce the same number, so neither reads the other's buffers, and
/// the timeout names where each waits.
void mismatchedNumbers() {
  setenv("PCC_COLLECTIVE_TIMEOUT", "0.2", 1);
  int64_t dims[] = {2};
  using namespace pcc::runtime;
  float in = 1, out[2] = {0, 0};
  Collective call{Collective::AllReduce,
                  1,
                  1,
                  dims,
                  1,
                  nullptr,
                  PCC_SUM,
                  PCC_F32,
                  nullptr,
                  &in,
                  &out[1],
                  1};
  GroupPos pos = checkAndLocate(call);
  findSlot(call, pos)->members[pos.rank].started += 1;
  pcc::test::runDevices(2, [&](int64_t d) {
    pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32, &in, &out[d], 1);
  });
}

TEST(CollectiveFingerprintDeathTest, DifferentNumbersNeverMeet) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(mismatchedNumbers(), testing::ExitedWithCode(1),
              "pcc_all_reduce \\(no source location\\): device [01] waited "
              "more than 0.2 s for the other devices of its group \\(at "
              "collective #[12] of the group\\); never arrived: device [01], "
              "which waits in another collective");
}

} // namespace
