//===- TimeoutTest.cpp - a collective that never completes ---------------===//
//
// A device that waits for peers that never come must not hang: after
// PCC_COLLECTIVE_TIMEOUT seconds the process ends with status 1 and says
// which collective and which devices never arrived. A death test: built into
// the plain runtime-tests only (it re-executes the binary, which the
// sanitizer builds would make slow and noisy).
//
//===----------------------------------------------------------------------===//

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
              "pcc_all_reduce: device 0 waited more than 0.2 s for the other "
              "devices of its group; device\\(s\\) 1 never reached "
              "this collective");
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
              "pcc_all_gather: device 1 waited .* device\\(s\\) 4 never "
              "reached this collective");
}

} // namespace
