//===- MovementDeathTest.cpp - bad arguments of the movement collectives --===//
//
// Arguments that generated code never passes end the process with a message
// naming the collective. Death tests re-execute the binary: plain build only.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "gtest/gtest.h"

namespace {

TEST(MovementDeathTest, InvalidArguments) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  int64_t dims[] = {2};
  float buffer[4] = {};
  int64_t badSources[] = {0, 2};
  EXPECT_DEATH(
      pcc_permute(0, 1, dims, 1, badSources, PCC_F32, buffer, buffer + 2, 2),
      "pcc_permute: invalid sources table");
  EXPECT_DEATH(
      pcc_all_to_all(0, 1, dims, 1, nullptr, PCC_F32, buffer, buffer, 2),
      "pcc_all_to_all: the input aliases the output");
  EXPECT_DEATH(pcc_reduce_scatter(0, 1, dims, 1, nullptr, PCC_SUM, PCC_F32,
                                  buffer, buffer + 2, 3),
               "does not split into one part per member");
  // Groups {0, 1} over an axis of 2 (pcc_runtime.h's layout), but position
  // 0 said to be at place 1 of the members, where 1 is.
  int64_t table[] = {0, 1, /*places*/ 1, 1, /*starts*/ 0, 0, /*sizes*/ 2, 2};
  EXPECT_DEATH(pcc_reduce_scatter(0, 1, dims, 1, table, PCC_SUM, PCC_F32,
                                  buffer, buffer + 2, 2),
               "invalid groups table");
}

} // namespace
