//===- CollectivesTest.cpp - Tests of pcc_all_reduce / pcc_all_gather -----===//
//
// Runs every collective on every element type over many group shapes and
// compares each device's result with the plain serial reference of
// CollectiveReference.h, computed independently of the runtime. Also covers
// in-place operation, NaN propagation, integer wraparound, single rounding of
// f16/bf16 sums, determinism, and long runs of back-to-back collectives that
// would expose barrier races.
//
//===----------------------------------------------------------------------===//

#include "CollectiveReference.h"
#include "RuntimeTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace pcc::test;

namespace {

/// Runs the collective of `c` on all devices with the given inputs.
Outcome runCase(const Case &c, std::vector<Bytes> inputs) {
  int64_t n = c.numDevices();
  auto groups = groupsOf(c);
  Outcome r;
  r.inputs = std::move(inputs);
  for (int64_t d = 0; d < n; ++d) {
    size_t outElems =
        size_t(c.count) * (c.op == kGather ? groups[d].size() : 1);
    // Fill outputs with garbage so that unwritten elements show.
    r.outputs.push_back(c.inPlace ? r.inputs[d]
                                  : Bytes(outElems * sizeOf(c.dtype), 0xa5));
  }
  int32_t rc = runDevices(n, [&](int64_t d) {
    const void *in = c.inPlace ? r.outputs[d].data() : r.inputs[d].data();
    if (c.op == kGather)
      pcc_all_gather(d, int64_t(c.dims.size()), c.dims.data(), c.mask, c.dtype,
                     in, r.outputs[d].data(), c.count);
    else
      pcc_all_reduce(d, int64_t(c.dims.size()), c.dims.data(), c.mask, c.op,
                     c.dtype, in, r.outputs[d].data(), c.count);
  });
  EXPECT_EQ(rc, 0);
  return r;
}

Outcome runCase(const Case &c) { return runCase(c, randomInputs(c)); }

/// Runs every op on every type (and i1 gathers) over grid `dims` / `mask`.
void checkAllOpsAndTypes(const std::vector<int64_t> &dims, uint64_t mask,
                         const std::vector<int64_t> &counts) {
  for (const Case &c : allOpsAndTypes(dims, mask, counts))
    EXPECT_TRUE(checkRun(c, runCase(c)));
}

//===----------------------------------------------------------------------===//
// Group shapes
//===----------------------------------------------------------------------===//

class OneAxis : public testing::TestWithParam<int64_t> {};

// Inputs of up to 4 KiB are staged in the group's slot (one meeting), larger
// ones are read in place (two): 512 and 1025 elements fall on either side
// of that for the wider types.
TEST_P(OneAxis, AllOpsAndTypes) {
  checkAllOpsAndTypes({GetParam()}, 1, {1, 3, 37, 512, 1025});
}

INSTANTIATE_TEST_SUITE_P(Collectives, OneAxis, testing::Range<int64_t>(1, 17),
                         [](const testing::TestParamInfo<int64_t> &info) {
                           return std::to_string(info.param) + "devices";
                         });

struct GridParam {
  std::vector<int64_t> dims;
  uint64_t mask;
};

class Grid : public testing::TestWithParam<GridParam> {};

TEST_P(Grid, AllOpsAndTypes) {
  checkAllOpsAndTypes(GetParam().dims, GetParam().mask, {1, 3, 37, 1025});
}

std::vector<GridParam> gridParams() {
  std::vector<GridParam> params;
  for (uint64_t mask = 0; mask < 4; ++mask)
    params.push_back({{2, 3}, mask});
  for (uint64_t mask = 0; mask < 8; ++mask)
    params.push_back({{2, 2, 2}, mask});
  return params;
}

INSTANTIATE_TEST_SUITE_P(Collectives, Grid, testing::ValuesIn(gridParams()),
                         [](const testing::TestParamInfo<GridParam> &info) {
                           std::string name;
                           for (int64_t d : info.param.dims)
                             name += std::to_string(d) + "x";
                           name.back() = '_';
                           return name + "mask" +
                                  std::to_string(info.param.mask);
                         });

TEST(Collectives, LargeOddCounts) {
  // Slices that do not divide evenly, several concurrent groups. Only one
  // case is really large: the sanitizer builds check every element slowly.
  const Case cases[] = {
      {{2, 2}, 1, PCC_F32, PCC_SUM, 1000003, false, 0, 1},
      {{3}, 1, PCC_BF16, PCC_SUM, 100003, true, 0, 2},
      {{4}, 1, PCC_I32, PCC_MAX, 100003, false, 0, 3},
      {{2, 3}, 2, PCC_F64, PCC_MIN, 30011, true, 0, 4},
      {{2}, 1, PCC_F64, kGather, 100003, false, 0, 5},
      {{5}, 1, PCC_I8, kGather, 30011, false, 0, 6},
  };
  for (const Case &c : cases)
    EXPECT_TRUE(checkRun(c, runCase(c)));
}

//===----------------------------------------------------------------------===//
// Semantics
//===----------------------------------------------------------------------===//

TEST(Collectives, NaNPropagates) {
  uint64_t seed = 100;
  for (int32_t dtype : kFloatTypes)
    for (int32_t op : {PCC_SUM, PCC_MAX, PCC_MIN})
      for (const auto &[dims, mask] :
           std::vector<GridParam>{{{4}, 1}, {{2, 2, 2}, 5}}) {
        Case c{dims, mask, dtype, op, 257, op == PCC_MIN, 0.05, ++seed};
        Outcome r = runCase(c);
        EXPECT_TRUE(checkRun(c, r));
        // The reference check accepts any NaN; also make sure NaNs occurred.
        int nans = 0;
        for (int64_t i = 0; i < c.count; ++i)
          nans += std::isnan(asDouble(loadBits(r.outputs[0], dtype, i), dtype));
        EXPECT_GT(nans, 0) << c.str();
      }
}

/// Runs an all-reduce over one axis whose device d contributes `vals[d]`
/// (bits) and returns device 0's result bits.
uint64_t reduceOne(int32_t op, int32_t dtype, std::vector<uint64_t> vals) {
  Case c{{int64_t(vals.size())}, 1, dtype, op, 1, false, 0, 0};
  std::vector<Bytes> inputs;
  for (uint64_t v : vals) {
    inputs.emplace_back(size_t(sizeOf(dtype)));
    storeBits(inputs.back(), dtype, 0, v);
  }
  Outcome r = runCase(c, inputs);
  EXPECT_TRUE(checkRun(c, r));
  for (const Bytes &out : r.outputs)
    EXPECT_EQ(out, r.outputs[0]);
  return loadBits(r.outputs[0], dtype, 0);
}

TEST(Collectives, IntegerSumsWrap) {
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_I8, {127, 1}), 0x80u);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_I16, {0x8000, 0xffff}), 0x7fffu);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_I32, {0x7fffffff, 1, 1}), 0x80000001u);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_I64, {uint64_t(INT64_MAX), 1}),
            uint64_t(INT64_MIN));
  // Signed comparison for max/min.
  EXPECT_EQ(reduceOne(PCC_MAX, PCC_I8, {0x80, 0x7f, 0xff}), 0x7fu);
  EXPECT_EQ(reduceOne(PCC_MIN, PCC_I32, {5, 0xfffffffe, 3}), 0xfffffffeu);
}

TEST(Collectives, HalfSumsRoundOnce) {
  // 1 + 2^-11 + 2^-11: each partial sum rounded to f16 would tie back to 1;
  // accumulated in f32, 1 + 2^-10 is exact in f16.
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_F16, {0x3c00, 0x1000, 0x1000}), 0x3c01u);
  // The same for bf16: 1 + 2^-8 + 2^-8 = 1 + 2^-7.
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_BF16, {0x3f80, 0x3b80, 0x3b80}), 0x3f81u);
  // Ties round to even: 1 + 2^-11 -> 1, (1 + 2^-10) + 2^-11 -> 1 + 2^-9.
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_F16, {0x3c00, 0x1000}), 0x3c00u);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_F16, {0x3c01, 0x1000}), 0x3c02u);
  // Overflow to infinity, and subnormal results.
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_F16, {0x7bff, 0x5000}), 0x7c00u);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_F16, {0x0001, 0x0001, 0x8001}), 0x0001u);
  EXPECT_EQ(reduceOne(PCC_SUM, PCC_BF16, {0x7f7f, 0x7f7f}), 0x7f80u);
  // Max/min select an input: NaN payloads and signs survive.
  EXPECT_EQ(reduceOne(PCC_MAX, PCC_F16, {0x3c00, 0x7e01, 0x7c00}), 0x7e01u);
  EXPECT_EQ(reduceOne(PCC_MIN, PCC_BF16, {0xff80, 0x3f80}), 0xff80u);
}

TEST(Collectives, Deterministic) {
  // Rounding makes float sums order-dependent: bitwise equality across runs
  // and members shows the order is fixed.
  for (int32_t dtype : {PCC_F32, PCC_BF16, PCC_F16, PCC_F64}) {
    Case c{{7}, 1, dtype, PCC_SUM, 10007, false, 0, 42};
    Outcome first = runCase(c), second = runCase(c);
    EXPECT_TRUE(checkRun(c, first));
    for (int64_t d = 0; d < 7; ++d) {
      EXPECT_EQ(first.outputs[d], first.outputs[0]) << c.str();
      EXPECT_EQ(first.outputs[d], second.outputs[d]) << c.str();
    }
  }
}

// Devices beyond the host threads run as fibers: all on one thread, or in
// blocks of threads that straddle the groups.
class Fibers : public testing::TestWithParam<int64_t> {};

TEST_P(Fibers, AllOpsAndTypes) {
  HostThreads limit(GetParam());
  checkAllOpsAndTypes({5}, 1, {1, 37, 1025});
  checkAllOpsAndTypes({2, 3}, 2, {3, 1025});
  checkAllOpsAndTypes({2, 2, 2}, 5, {3, 1025});
}

INSTANTIATE_TEST_SUITE_P(Collectives, Fibers, testing::Values(1, 3),
                         [](const testing::TestParamInfo<int64_t> &info) {
                           return std::to_string(info.param) + "threads";
                         });

//===----------------------------------------------------------------------===//
// Stress
//===----------------------------------------------------------------------===//

TEST(Collectives, BackToBackSmallSums) {
  // Many tiny collectives in a row: a barrier that lets a fast device into
  // the next phase early, or a slot reused too soon, corrupts some result.
  constexpr int kIters = 10000;
  int64_t dims[1] = {2};
  std::vector<int> bad(2);
  ASSERT_EQ(runDevices(2,
                       [&](int64_t d) {
                         for (int it = 0; it < kIters; ++it) {
                           float v[2] = {float(it + d), -float(it * d)};
                           pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32, v, v,
                                          2);
                           if (v[0] != float(2 * it + 1) || v[1] != -float(it))
                             ++bad[d];
                         }
                       }),
            0);
  EXPECT_EQ(bad[0] + bad[1], 0);
}

TEST(Collectives, BackToBackStagedAndInPlace) {
  // Staged collectives (one meeting) between in-place ones (two), in place:
  // a staged copy or announcement reused before every peer has read it
  // corrupts some result. 1024 f32 are staged, 1025 are not.
  constexpr int kIters = 2000;
  int64_t dims[1] = {3};
  std::vector<int> bad(3);
  ASSERT_EQ(runDevices(3,
                       [&](int64_t d) {
                         std::vector<float> v(1025);
                         for (int it = 0; it < kIters; ++it) {
                           int64_t count = it % 3 == 2 ? 1025 : 1 + it % 1024;
                           for (int64_t i = 0; i < count; ++i)
                             v[i] = float(it + 10 * d + i % 7);
                           pcc_all_reduce(d, 1, dims, 1, PCC_SUM, PCC_F32,
                                          v.data(), v.data(), count);
                           for (int64_t i = 0; i < count; ++i)
                             if (v[i] != float(3 * it + 30 + 3 * (i % 7)))
                               ++bad[d];
                         }
                       }),
            0);
  EXPECT_EQ(bad[0] + bad[1] + bad[2], 0);
}

TEST(Collectives, BackToBackMixedGroups) {
  // Alternating groups and collectives on a 2x2 grid: row groups, column
  // groups and the whole grid, with varying counts, several rounds: with a
  // thread per device, two devices per thread and all on one.
  constexpr int kIters = 1000;
  int64_t dims[2] = {2, 2};
  std::vector<int> bad(4);
  for (int round = 0; round < 3; ++round) {
    HostThreads limit(4 >> round);
    ASSERT_EQ(
        runDevices(
            4,
            [&](int64_t d) {
              int64_t row = d / 2, col = d % 2;
              int64_t buf[5], gathered[20];
              for (int it = 0; it < kIters; ++it) {
                uint64_t mask = 1 + (it + round) % 3;
                int64_t count = 1 + it % 5;
                for (int64_t i = 0; i < count; ++i)
                  buf[i] = it * 100 + d * 10 + i;
                pcc_all_reduce(d, 2, dims, mask, PCC_SUM, PCC_I64, buf, buf,
                               count);
                for (int64_t i = 0; i < count; ++i) {
                  int64_t base = it * 100 + i, want;
                  if (mask == 1) // Over rows: devices col and 2 + col.
                    want = 2 * base + 10 * (col + 2 + col);
                  else if (mask == 2) // Over columns: 2*row and 2*row+1.
                    want = 2 * base + 10 * (4 * row + 1);
                  else
                    want = 4 * base + 10 * 6;
                  if (buf[i] != want)
                    ++bad[d];
                }
                int64_t mine = it * 10 + d;
                pcc_all_gather(d, 2, dims, mask, PCC_I64, &mine, gathered, 1);
                int64_t members[4], n = 0;
                for (int64_t e = 0; e < 4; ++e)
                  if ((mask & 1 || e / 2 == row) && (mask & 2 || e % 2 == col))
                    members[n++] = e;
                for (int64_t j = 0; j < n; ++j)
                  if (gathered[j] != it * 10 + members[j])
                    ++bad[d];
              }
            }),
        0);
  }
  for (int d = 0; d < 4; ++d)
    EXPECT_EQ(bad[d], 0) << "device " << d;
}

/// Runs every kind of collective back to back in one launch of 8 devices
/// on integers of type T, with counts (scaled to T's size) that alternate
/// between claimed blocks and fixed slices; counts the wrong elements.
template <typename T> int64_t claimedBlocksBackToBack(int64_t threads) {
  constexpr int kIters = 6;
  constexpr int64_t kScale = 4 / int64_t(sizeof(T)), kMax = 300008 * kScale;
  int64_t dims[1] = {8};
  const int64_t counts[] = {300008, 8, 65536, 1000, 131080, 262144};
  int32_t dtype = sizeof(T) == 1 ? PCC_I8 : sizeof(T) == 2 ? PCC_I16 : PCC_I32;
  // Device d's element i in round `it`: its period (10007) divides no part,
  // chunk or block, so one read from the wrong place shows. Sums wrap as
  // T's do.
  auto value = [](int64_t it, int64_t d, int64_t i) {
    return int64_t(it * 3 + d * 131 + i % 10007);
  };
  std::vector<int64_t> bad(8);
  HostThreads limit(threads);
  int32_t rc = runDevices(8, [&](int64_t d) {
    std::vector<T> buf(static_cast<size_t>(kMax)),
        out(static_cast<size_t>(8 * kMax));
    auto fill = [&](int64_t count, int it) {
      for (int64_t i = 0; i < count; ++i)
        buf[size_t(i)] = T(value(it, d, i));
      std::fill(out.begin(), out.end(), T(0x5a));
    };
    auto sum = [&](int it, int64_t i) {
      int64_t s = 0;
      for (int64_t m = 0; m < 8; ++m)
        s += value(it, m, i);
      return T(s);
    };
    for (int it = 0; it < kIters; ++it) {
      int64_t count = counts[it] * kScale, part = count / 8;
      fill(count, it);
      pcc_all_reduce(d, 1, dims, 1, PCC_SUM, dtype, buf.data(), out.data(),
                     count);
      for (int64_t i = 0; i < count; ++i)
        bad[d] += out[size_t(i)] != sum(it, i);
      fill(count, it);
      pcc_reduce_scatter(d, 1, dims, 1, nullptr, PCC_SUM, dtype, buf.data(),
                         out.data(), count);
      for (int64_t i = 0; i < part; ++i)
        bad[d] += out[size_t(i)] != sum(it, d * part + i);
      fill(count, it);
      pcc_all_to_all(d, 1, dims, 1, nullptr, dtype, buf.data(), out.data(),
                     count);
      // Chunk j of the output is chunk d of device j's input.
      for (int64_t j = 0; j < 8; ++j)
        for (int64_t i = 0; i < part; ++i)
          bad[d] += out[size_t(j * part + i)] != T(value(it, j, d * part + i));
      fill(count, it);
      pcc_all_gather(d, 1, dims, 1, dtype, buf.data(), out.data(), count);
      for (int64_t j = 0; j < 8; ++j)
        for (int64_t i = 0; i < count; ++i)
          bad[d] += out[size_t(j * count + i)] != T(value(it, j, i));
      // A ring shift in which device 0 receives nothing.
      const int64_t sources[8] = {-1, 0, 1, 2, 3, 4, 5, 6};
      fill(count, it);
      pcc_permute(d, 1, dims, 1, sources, dtype, buf.data(), out.data(), count);
      for (int64_t i = 0; i < count; ++i)
        bad[d] += out[size_t(i)] != (d == 0 ? T(0) : T(value(it, d - 1, i)));
    }
  });
  EXPECT_EQ(rc, 0);
  int64_t wrong = 0;
  for (int64_t b : bad)
    wrong += b;
  return wrong;
}

TEST(Collectives, ClaimedBlocksBackToBack) {
  // Large collectives share their blocks out to whichever member claims
  // them, counting claims across the group's collectives: claimed and
  // fixed-slice sizes and every kind alternate in one launch, with blocks
  // that straddle the members' parts, for elements of 1, 2 and 4 bytes, on
  // a thread per device and on fibers (8 devices on 2 threads, where one
  // member per thread claims most blocks).
  EXPECT_EQ(claimedBlocksBackToBack<int32_t>(8), 0);
  EXPECT_EQ(claimedBlocksBackToBack<int32_t>(2), 0);
  EXPECT_EQ(claimedBlocksBackToBack<int16_t>(2), 0);
  EXPECT_EQ(claimedBlocksBackToBack<int8_t>(2), 0);
}

TEST(Collectives, ThreadsReusedAcrossCollectiveRuns) {
  HostThreads threadEach(8);
  Case c{{8}, 1, PCC_F32, PCC_SUM, 3, false, 0, 7};
  EXPECT_TRUE(checkRun(c, runCase(c)));
  int64_t alive = pcc_runtime_num_threads();
  EXPECT_GE(alive, 7); // the caller runs device 0
  for (int i = 0; i < 50; ++i) {
    c.seed = i;
    EXPECT_TRUE(checkRun(c, runCase(c)));
  }
  EXPECT_EQ(pcc_runtime_num_threads(), alive);
}

} // namespace
