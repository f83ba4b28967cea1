//===- MovementTest.cpp - reduce-scatter, all-to-all, permute and groups --===//
//
// pcc_reduce_scatter, pcc_all_to_all and pcc_permute on host devices, and
// collectives within axis_index_groups, checked against results computed
// here by hand from each device's inputs: small messages (staged in the
// group's slot), large ones (read from the peers' buffers, streamed from
// 1 MiB), fibers. (The argument checks are in MovementDeathTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "RuntimeTestUtil.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <vector>

using namespace pcc::test;
using pcc::runtime::Collective;

namespace {

/// Device d's element i: small integers, exact in f32 sums, whose period
/// (10007) divides no part size, so a part read from the wrong place shows.
float valueOf(int64_t d, int64_t i) { return float((d * 131 + i * 7) % 10007); }

/// The groups table of pcc_runtime.h for `groups` over an axis of `size`.
std::vector<int64_t>
groupsTable(const std::vector<std::vector<int64_t>> &groups, int64_t size) {
  std::vector<int64_t> table(size_t(4 * size));
  int64_t at = 0;
  for (const auto &group : groups) {
    int64_t start = at;
    for (int64_t position : group) {
      table[size_t(at)] = position;
      table[size_t(size + position)] = at++;
      table[size_t(2 * size + position)] = start;
      table[size_t(3 * size + position)] = int64_t(group.size());
    }
  }
  return table;
}

/// Inputs of `n` devices, `count` elements each.
std::vector<std::vector<float>> inputsOf(int64_t n, int64_t count) {
  std::vector<std::vector<float>> in(static_cast<size_t>(n));
  for (auto &row : in)
    row.resize(static_cast<size_t>(count));
  for (int64_t d = 0; d < n; ++d)
    for (int64_t i = 0; i < count; ++i)
      in[size_t(d)][size_t(i)] = valueOf(d, i);
  return in;
}

class Sizes : public testing::TestWithParam<std::tuple<int64_t, int64_t>> {};

TEST_P(Sizes, ReduceScatter) {
  auto [n, part] = GetParam();
  int64_t count = n * part;
  auto in = inputsOf(n, count);
  std::vector<std::vector<float>> out(size_t(n),
                                      std::vector<float>(size_t(part), -1));
  int64_t dims[] = {n};
  ASSERT_EQ(runDevices(n,
                       [&](int64_t d) {
                         pcc_reduce_scatter(d, 1, dims, 1, nullptr, PCC_SUM,
                                            PCC_F32, in[size_t(d)].data(),
                                            out[size_t(d)].data(), count);
                       }),
            0);
  for (int64_t d = 0; d < n; ++d)
    for (int64_t i = 0; i < part; ++i) {
      float sum = 0;
      for (int64_t m = 0; m < n; ++m)
        sum += valueOf(m, d * part + i);
      ASSERT_EQ(out[size_t(d)][size_t(i)], sum)
          << "device " << d << " at " << i;
    }
}

TEST_P(Sizes, AllToAll) {
  auto [n, part] = GetParam();
  int64_t count = n * part;
  auto in = inputsOf(n, count);
  std::vector<std::vector<float>> out(size_t(n),
                                      std::vector<float>(size_t(count), -1));
  int64_t dims[] = {n};
  ASSERT_EQ(runDevices(n,
                       [&](int64_t d) {
                         pcc_all_to_all(d, 1, dims, 1, nullptr, PCC_F32,
                                        in[size_t(d)].data(),
                                        out[size_t(d)].data(), count);
                       }),
            0);
  // Chunk j of device d's output is chunk d of device j's input.
  for (int64_t d = 0; d < n; ++d)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < part; ++i)
        ASSERT_EQ(out[size_t(d)][size_t(j * part + i)],
                  valueOf(j, d * part + i));
}

TEST_P(Sizes, PermuteRingWithAHole) {
  auto [n, part] = GetParam();
  auto in = inputsOf(n, part);
  std::vector<std::vector<float>> out(size_t(n),
                                      std::vector<float>(size_t(part), -1));
  // Device d receives from d - 1, except device 0, which receives nothing.
  std::vector<int64_t> sources(static_cast<size_t>(n));
  for (int64_t d = 0; d < n; ++d)
    sources[size_t(d)] = d - 1;
  int64_t dims[] = {n};
  ASSERT_EQ(runDevices(n,
                       [&](int64_t d) {
                         pcc_permute(d, 1, dims, 1, sources.data(), PCC_F32,
                                     in[size_t(d)].data(),
                                     out[size_t(d)].data(), part);
                       }),
            0);
  for (int64_t d = 0; d < n; ++d)
    for (int64_t i = 0; i < part; ++i)
      ASSERT_EQ(out[size_t(d)][size_t(i)], d == 0 ? 0.0f : valueOf(d - 1, i));
}

// Staged (up to 4 KiB), read from the peers, and streamed (from 1 MiB out).
INSTANTIATE_TEST_SUITE_P(Movement, Sizes,
                         testing::Combine(testing::Values(1, 2, 3, 4, 8),
                                          testing::Values(1, 100, 300000)));

TEST(Groups, SumsWithinUnequalGroupsOfAGridAxis) {
  // A 2 x 4 grid; psum over "j" in groups {3, 0, 2} and {1}.
  int64_t dims[] = {2, 4};
  std::vector<int64_t> table = groupsTable({{3, 0, 2}, {1}}, 4);
  int64_t count = 1000;
  auto in = inputsOf(8, count);
  std::vector<std::vector<float>> out(8, std::vector<float>(size_t(count), -1));
  ASSERT_EQ(runDevices(8,
                       [&](int64_t d) {
                         pcc::runtime::runHostCollective(
                             {Collective::AllReduce, d, 2, dims, 2,
                              table.data(), PCC_SUM, PCC_F32, nullptr,
                              in[size_t(d)].data(), out[size_t(d)].data(),
                              count});
                       }),
            0);
  for (int64_t d = 0; d < 8; ++d) {
    int64_t row = d / 4, col = d % 4;
    std::vector<int64_t> members =
        col == 1 ? std::vector<int64_t>{1} : std::vector<int64_t>{3, 0, 2};
    for (int64_t i = 0; i < count; ++i) {
      float sum = 0;
      for (int64_t m : members)
        sum += valueOf(row * 4 + m, i);
      ASSERT_EQ(out[size_t(d)][size_t(i)], sum) << "device " << d;
    }
  }
}

TEST(Groups, GatherInTheGroupsOrderOnFibers) {
  // Six devices on two threads: fibers. Groups {4, 1, 0} and {2, 5, 3}.
  ASSERT_EQ(pcc_set_host_threads(2), 0);
  int64_t dims[] = {6};
  std::vector<int64_t> table = groupsTable({{4, 1, 0}, {2, 5, 3}}, 6);
  auto in = inputsOf(6, 3);
  std::vector<std::vector<float>> out(6, std::vector<float>(9, -1));
  ASSERT_EQ(runDevices(6,
                       [&](int64_t d) {
                         pcc::runtime::runHostCollective(
                             {Collective::AllGather, d, 1, dims, 1,
                              table.data(), 0, PCC_F32, nullptr,
                              in[size_t(d)].data(), out[size_t(d)].data(), 3});
                       }),
            0);
  ASSERT_EQ(pcc_set_host_threads(0), 0);
  for (int64_t d = 0; d < 6; ++d) {
    std::vector<int64_t> members = d == 4 || d == 1 || d == 0
                                       ? std::vector<int64_t>{4, 1, 0}
                                       : std::vector<int64_t>{2, 5, 3};
    for (int64_t k = 0; k < 3; ++k)
      for (int64_t i = 0; i < 3; ++i)
        ASSERT_EQ(out[size_t(d)][size_t(k * 3 + i)],
                  valueOf(members[size_t(k)], i));
  }
}

} // namespace
