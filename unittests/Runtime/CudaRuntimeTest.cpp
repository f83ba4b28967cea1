//===- CudaRuntimeTest.cpp - The cuda platform on a GPU ------------------===//
//
// The cuda-runtime-tests binary: runs the cuda platform on the GPUs of the
// machine, placing 1 to 8 logical devices on them (oversubscribed), and
// checks every collective on every element type through the entry points
// that generated code calls, against the serial reference of
// CollectiveReference.h and bitwise against the host runtime; the mgpu*
// memory, stream and event functions; loading and launching a PTX module
// from the host and from device threads; and the fatal errors. Every test
// skips (with the probe's message) where no GPU is usable, so the binary is
// also safe to run on machines without one. Built a second time as
// cuda-sim-tests, on the simulated GPU (lib/Runtime/Sim), where the test
// kernel is the same function compiled for the host.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "CollectiveReference.h"
#include "CudaTestKernel.h"
#include "RuntimeTestUtil.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace pcc::test;

#ifdef PCC_PORTABLE_BINARY
#include <sys/random.h>

// The static libstdc++ of cuda-runtime-tests refers to arc4random (for
// std::random_device), which glibc has only since 2.36; this definition
// keeps the binary running on the older glibc of other machines.
extern "C" uint32_t arc4random(void) {
  uint32_t value = 0;
  while (getrandom(&value, sizeof(value), 0) != sizeof(value)) {
  }
  return value;
}
#endif

namespace {

#ifdef PCC_SIM_GPUS
// cuda-sim-tests: the platform runs on PCC_SIM_GPUS simulated GPUs, and the
// test kernel is pcc_test_add compiled for the host, as the cuda-sim
// pipeline compiles kernels.
const bool kSimulated = [] {
  char message[256] = "";
  return pcc_cuda_simulate(PCC_SIM_GPUS, message, sizeof(message)) == 0;
}();

void testAdd(void **params, pcc_sim_thread *thread) {
  int32_t *data;
  uint32_t n;
  int32_t value;
  std::memcpy(&data, params[0], sizeof(data));
  std::memcpy(&n, params[1], sizeof(n));
  std::memcpy(&value, params[2], sizeof(value));
  uint32_t i =
      thread->block_id[0] * thread->block_dim[0] + thread->thread_id[0];
  if (i < n)
    data[i] += value;
}
const int64_t kTestAddSizes[] = {8, 4, 4};
const pcc_sim_kernel kTestAdd = {"pcc_test_add", testAdd, 3, kTestAddSizes, 0};
const pcc_sim_image kTestImage = {PCC_SIM_IMAGE_MAGIC, 1, &kTestAdd};
char *const kTestKernel =
    const_cast<char *>(reinterpret_cast<const char *>(&kTestImage));
constexpr size_t kTestKernelSize = sizeof(kTestImage);
#else
char *const kTestKernel = const_cast<char *>(kTestKernelPtx);
constexpr size_t kTestKernelSize = sizeof(kTestKernelPtx);
#endif

int64_t numGpus() {
  char message[512] = "";
  return pcc_cuda_probe(message, sizeof(message));
}

/// Skips the test where no GPU is usable.
class Cuda : public testing::Test {
protected:
  void SetUp() override {
    char message[512] = "";
    if (pcc_cuda_probe(message, sizeof(message)) == 0)
      GTEST_SKIP() << message;
  }
};

/// Runs f(device) on `n` logical cuda devices, oversubscribed on the GPUs.
template <typename F> void launch(int64_t n, F &&f) {
  char message[512] = "";
  ASSERT_EQ(pcc_cuda_init(n, 1, message, sizeof(message)), 0) << message;
  using Fn = std::remove_reference_t<F>;
  pcc_cuda_launch(
      n, [](void *ctx, int64_t d) { (*static_cast<Fn *>(ctx))(d); },
      const_cast<void *>(static_cast<const void *>(&f)), -1);
}

//===----------------------------------------------------------------------===//
// Initialization, launches and streams
//===----------------------------------------------------------------------===//

TEST_F(Cuda, InitChecksPlacement) {
  int64_t gpus = numGpus();
  char message[512] = "";
  ASSERT_NE(pcc_cuda_init(gpus + 1, 0, message, sizeof(message)), 0);
  EXPECT_NE(std::string(message).find("pass --oversubscribe"),
            std::string::npos)
      << message;
  ASSERT_EQ(pcc_cuda_init(gpus + 1, 1, message, sizeof(message)), 0) << message;
  EXPECT_NE(std::string(message).find("GPU"), std::string::npos) << message;
  // Again with the same arguments: nothing to do.
  ASSERT_EQ(pcc_cuda_init(gpus + 1, 1, message, sizeof(message)), 0) << message;
  ASSERT_EQ(pcc_cuda_init(0, 0, message, sizeof(message)), 0) << message;
}

TEST_F(Cuda, EveryDeviceRunsOnceWithItsOwnStream) {
  void *hostStream = mgpuStreamCreate();
  ASSERT_NE(hostStream, nullptr);
  EXPECT_EQ(mgpuStreamCreate(), hostStream);
  for (int64_t n : {1, 2, 3, 4, 8}) {
    std::vector<int> runs(size_t(n), 0);
    std::vector<void *> streams(static_cast<size_t>(n)),
        again(static_cast<size_t>(n));
    launch(n, [&](int64_t d) {
      ++runs[size_t(d)];
      streams[size_t(d)] = mgpuStreamCreate();
      mgpuStreamDestroy(streams[size_t(d)]);
      again[size_t(d)] = mgpuStreamCreate();
      mgpuStreamSynchronize(again[size_t(d)]);
    });
    std::set<void *> distinct(streams.begin(), streams.end());
    EXPECT_EQ(int64_t(distinct.size()), n);
    for (int64_t d = 0; d < n; ++d) {
      EXPECT_EQ(runs[size_t(d)], 1) << d;
      EXPECT_NE(streams[size_t(d)], nullptr);
      EXPECT_EQ(streams[size_t(d)], again[size_t(d)]);
      EXPECT_NE(streams[size_t(d)], hostStream);
    }
  }
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST_F(Cuda, MemoryFunctions) {
  void *stream = mgpuStreamCreate();
  auto *a = static_cast<uint32_t *>(mgpuMemAlloc(1024 * 4, stream, 0));
  auto *b = static_cast<uint16_t *>(mgpuMemAlloc(1024 * 4, stream, 1));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  mgpuMemset32(a, 0xdeadbeef, 1024, stream);
  mgpuMemset16(b, 0x1234, 2048, stream);
  void *event = mgpuEventCreate();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  mgpuEventSynchronize(event);
  mgpuEventDestroy(event);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(a[i], 0xdeadbeefu) << i;
  for (int i = 0; i < 2048; ++i)
    ASSERT_EQ(b[i], 0x1234u) << i;
  std::vector<uint32_t> host(1024, 0);
  mgpuMemcpy(b, a, 4096, stream);
  mgpuMemcpy(host.data(), b, 4096, stream);
  mgpuStreamSynchronize(stream);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(host[size_t(i)], 0xdeadbeefu) << i;
  mgpuMemFree(a, stream);
  mgpuMemFree(b, stream);
  mgpuStreamDestroy(stream);

  void *empty1 = pcc_cuda_alloc(0), *empty2 = pcc_cuda_alloc(0);
  EXPECT_NE(empty1, nullptr);
  EXPECT_NE(empty1, empty2);
  pcc_cuda_free(empty1);
  pcc_cuda_free(empty2);
  pcc_cuda_free(nullptr);

  void *aligned = _mlir_memref_to_llvm_aligned_alloc(128, 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 256, 0u);
  static_cast<char *>(aligned)[99] = 1;
  _mlir_memref_to_llvm_free(aligned);

  int64_t descriptor[5] = {0, 0, 0, 1, 1};
  mgpuMemHostRegisterMemRef(1, descriptor, 4);
  mgpuMemHostUnregisterMemRef(1, descriptor, 4);
}

TEST_F(Cuda, DeviceThreadsAllocateAndCopy) {
  constexpr int64_t kCount = 4096;
  std::vector<int> bad(8, 0);
  launch(8, [&](int64_t d) {
    void *stream = mgpuStreamCreate();
    auto *a = static_cast<int32_t *>(pcc_cuda_alloc(kCount * 4));
    auto *b = static_cast<int32_t *>(mgpuMemAlloc(kCount * 4, stream, 0));
    for (int64_t i = 0; i < kCount; ++i)
      a[i] = int32_t(d * 100000 + i);
    mgpuMemcpy(b, a, kCount * 4, stream);
    mgpuStreamSynchronize(stream);
    for (int64_t i = 0; i < kCount; ++i)
      bad[size_t(d)] += b[i] != int32_t(d * 100000 + i);
    mgpuMemFree(b, stream);
    pcc_cuda_free(a);
  });
  for (int d = 0; d < 8; ++d)
    EXPECT_EQ(bad[size_t(d)], 0) << d;
}

TEST_F(Cuda, LaunchWaitsForTheHostStream) {
  // The host queues a fill and launches devices that read the buffer without
  // synchronizing: the launch must wait for the host stream first. (The
  // mock's stream is slow enough for the devices to see a missing wait.)
  constexpr int64_t kCount = int64_t(1) << 24;
  auto *data = static_cast<uint32_t *>(pcc_cuda_alloc(kCount * 4));
  launch(4, [](int64_t) {}); // Devices ready: the next launch starts fast.
  mgpuMemset32(data, 7, size_t(kCount), mgpuStreamCreate());
  std::vector<int> bad(4, 0);
  launch(4, [&](int64_t d) {
    for (int64_t i = kCount - 1 - d; i >= 0; i -= 4 * 1024)
      bad[size_t(d)] += data[i] != 7;
  });
  for (int d = 0; d < 4; ++d)
    EXPECT_EQ(bad[size_t(d)], 0) << d;
  pcc_cuda_free(data);
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// Launches pcc_test_add(data, n, value) from the calling thread and waits.
void addOnGpu(void *module, int32_t *data, uint32_t n, int32_t value) {
  void *function = mgpuModuleGetFunction(module, "pcc_test_add");
  void *stream = mgpuStreamCreate();
  void *params[] = {&data, &n, &value};
  mgpuLaunchKernel(function, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream,
                   params, nullptr, 3);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

TEST_F(Cuda, ModulesLoadAndLaunchEverywhere) {
  for (bool jit : {false, true}) {
    void *module = jit ? mgpuModuleLoadJIT(kTestKernel, 2)
                       : mgpuModuleLoad(kTestKernel, kTestKernelSize);
    constexpr int64_t kCount = 1000;
    auto *data = static_cast<int32_t *>(pcc_cuda_alloc(kCount * 4));
    for (int64_t i = 0; i < kCount; ++i)
      data[i] = int32_t(i);
    addOnGpu(module, data, uint32_t(kCount), 5);
    for (int64_t i = 0; i < kCount; ++i)
      ASSERT_EQ(data[i], i + 5) << i;
    // Each of 4 devices (on every GPU, several per GPU) adds its index to
    // its quarter: the module is loaded into each GPU's context once.
    launch(4, [&](int64_t d) {
      addOnGpu(module, data + d * (kCount / 4), uint32_t(kCount / 4),
               int32_t(d));
    });
    for (int64_t i = 0; i < kCount; ++i)
      ASSERT_EQ(data[i], i + 5 + i / (kCount / 4)) << i;
    // A cluster of one block is an ordinary launch.
    void *function = mgpuModuleGetFunction(module, "pcc_test_add");
    void *stream = mgpuStreamCreate();
    int32_t *pointer = data;
    uint32_t n = 1;
    int32_t value = 100;
    void *params[] = {&pointer, &n, &value};
    mgpuLaunchClusterKernel(function, 1, 1, 1, 1, 1, 1, 32, 1, 1, 0, stream,
                            params, nullptr);
    mgpuStreamSynchronize(stream);
    EXPECT_EQ(data[0], 105);
    pcc_cuda_free(data);
    mgpuModuleUnload(module);
  }
}

//===----------------------------------------------------------------------===//
// Collectives through generated code's entry point
//===----------------------------------------------------------------------===//

/// A collective call site as generated code passes it: pcc_collective_site,
/// the grid's sizes right after it.
struct TestSite {
  pcc_collective_site site;
  int64_t dims[4];
};

TestSite makeSite(pcc_collective_kind kind, int32_t dtype, int32_t reduction,
                  int64_t count, uint64_t mask,
                  const std::vector<int64_t> &dims) {
  TestSite t{};
  t.site.kind = kind;
  t.site.dtype = dtype;
  t.site.reduction = reduction;
  t.site.count = count;
  t.site.axes_mask = int64_t(mask);
  t.site.grid_rank = int64_t(dims.size());
  EXPECT_LE(dims.size(), std::size(t.dims));
  std::copy(dims.begin(), dims.end(), t.dims);
  return t;
}

/// The call-site text generated code passes (a NUL-terminated string).
constexpr char kTestSite[] = "test collective";

/// Runs the collective of `c` on cuda devices. Each device's input is first
/// copied from a staging buffer on its stream (still in flight when the
/// collective starts, which must wait for it), and the device thread reads
/// its result right after the collective returns (which must have
/// synchronized).
Outcome runOnGpus(const Case &c, std::vector<Bytes> inputs) {
  int64_t n = c.numDevices();
  auto groups = groupsOf(c);
  size_t es = size_t(sizeOf(c.dtype));
  size_t inBytes = size_t(c.count) * es;
  std::vector<void *> staging(static_cast<size_t>(n)),
      in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  std::vector<size_t> outBytes(static_cast<size_t>(n));
  for (int64_t d = 0; d < n; ++d) {
    staging[size_t(d)] = pcc_cuda_alloc(int64_t(inBytes));
    std::memcpy(staging[size_t(d)], inputs[size_t(d)].data(), inBytes);
    in[size_t(d)] = pcc_cuda_alloc(int64_t(inBytes));
    std::memset(in[size_t(d)], 0x5a, inBytes);
    outBytes[size_t(d)] =
        inBytes * (c.op == kGather ? groups[size_t(d)].size() : 1);
    out[size_t(d)] = c.inPlace ? in[size_t(d)]
                               : pcc_cuda_alloc(int64_t(outBytes[size_t(d)]));
    if (!c.inPlace)
      std::memset(out[size_t(d)], 0xa5, outBytes[size_t(d)]);
  }
  Outcome r;
  r.inputs = std::move(inputs);
  r.outputs.resize(static_cast<size_t>(n));
  std::vector<int64_t> dims = c.dims;
  launch(n, [&](int64_t d) {
    size_t i = size_t(d);
    mgpuMemcpy(in[i], staging[i], inBytes, mgpuStreamCreate());
    TestSite site =
        c.op == kGather
            ? makeSite(PCC_ALL_GATHER, c.dtype, 0, c.count, c.mask, dims)
            : makeSite(PCC_ALL_REDUCE, c.dtype, c.op, c.count, c.mask, dims);
    pcc_collective(&site.site, nullptr, kTestSite, d, in[i], out[i]);
    const auto *bytes = static_cast<const uint8_t *>(out[i]);
    r.outputs[i].assign(bytes, bytes + outBytes[i]);
  });
  for (int64_t d = 0; d < n; ++d) {
    pcc_cuda_free(staging[size_t(d)]);
    pcc_cuda_free(in[size_t(d)]);
    if (!c.inPlace)
      pcc_cuda_free(out[size_t(d)]);
  }
  return r;
}

/// The same collective on the host runtime.
Outcome runOnHost(const Case &c, std::vector<Bytes> inputs) {
  int64_t n = c.numDevices();
  auto groups = groupsOf(c);
  Outcome r;
  r.inputs = std::move(inputs);
  for (int64_t d = 0; d < n; ++d)
    r.outputs.push_back(
        c.inPlace ? r.inputs[size_t(d)]
                  : Bytes(size_t(c.count * sizeOf(c.dtype)) *
                          (c.op == kGather ? groups[size_t(d)].size() : 1)));
  EXPECT_EQ(runDevices(n,
                       [&](int64_t d) {
                         const void *x = c.inPlace ? r.outputs[size_t(d)].data()
                                                   : r.inputs[size_t(d)].data();
                         void *y = r.outputs[size_t(d)].data();
                         int64_t rank = int64_t(c.dims.size());
                         if (c.op == kGather)
                           pcc_all_gather(d, rank, c.dims.data(), c.mask,
                                          c.dtype, x, y, c.count);
                         else
                           pcc_all_reduce(d, rank, c.dims.data(), c.mask, c.op,
                                          c.dtype, x, y, c.count);
                       }),
            0);
  return r;
}

/// Checks the GPUs' results against the reference and, bitwise, the host
/// runtime's.
testing::AssertionResult checkCase(const Case &c) {
  std::vector<Bytes> inputs = randomInputs(c);
  Outcome gpu = runOnGpus(c, inputs);
  if (testing::AssertionResult ok = checkRun(c, gpu); !ok)
    return ok;
  Outcome host = runOnHost(c, inputs);
  for (size_t d = 0; d < gpu.outputs.size(); ++d)
    if (gpu.outputs[d] != host.outputs[d])
      return testing::AssertionFailure()
             << c.str() << ": device " << d << " differs from the host runtime";
  return testing::AssertionSuccess();
}

void checkAllOpsAndTypes(const std::vector<int64_t> &dims, uint64_t mask) {
  for (const Case &c : allOpsAndTypes(dims, mask, {1, 37, 4099}))
    EXPECT_TRUE(checkCase(c));
}

class CudaOneAxis : public Cuda, public testing::WithParamInterface<int64_t> {};

TEST_P(CudaOneAxis, AllOpsAndTypes) { checkAllOpsAndTypes({GetParam()}, 1); }

INSTANTIATE_TEST_SUITE_P(Cuda, CudaOneAxis, testing::Values(1, 2, 3, 4, 8),
                         [](const testing::TestParamInfo<int64_t> &info) {
                           return std::to_string(info.param) + "devices";
                         });

class CudaGrid : public Cuda, public testing::WithParamInterface<uint64_t> {};

TEST_P(CudaGrid, AllOpsAndTypes) { checkAllOpsAndTypes({2, 3}, GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cuda, CudaGrid, testing::Values(0, 1, 2, 3),
                         [](const testing::TestParamInfo<uint64_t> &info) {
                           return "2x3_mask" + std::to_string(info.param);
                         });

TEST_F(Cuda, LargeAndNaN) {
  const Case cases[] = {
      {{4}, 1, PCC_F32, PCC_SUM, 1 << 20, false, 0, 1},
      {{3}, 1, PCC_BF16, PCC_SUM, 100003, true, 0, 2},
      {{2, 2}, 3, PCC_F16, PCC_SUM, 65537, false, 0, 3},
      {{2}, 1, PCC_F64, kGather, 100003, false, 0, 4},
      {{4}, 1, PCC_F32, PCC_MAX, 4099, false, 0.05, 5},
      {{4}, 1, PCC_F16, PCC_MIN, 4099, true, 0.05, 6},
      {{2, 2, 2}, 5, PCC_F64, PCC_SUM, 4099, false, 0.05, 7},
  };
  for (const Case &c : cases)
    EXPECT_TRUE(checkCase(c));
}

TEST_F(Cuda, BackToBackCollectives) {
  // Many small collectives in one launch: slots, scratch buffers and
  // streams are reused, and every result is complete on return.
  constexpr int kIters = 300;
  int64_t dims[2] = {2, 2};
  std::vector<int> bad(4, 0);
  launch(4, [&](int64_t d) {
    auto *buf = static_cast<int64_t *>(pcc_cuda_alloc(8 * 3));
    auto *gathered = static_cast<int64_t *>(pcc_cuda_alloc(8 * 4));
    auto *mine = static_cast<int64_t *>(pcc_cuda_alloc(8));
    int64_t row = d / 2, col = d % 2;
    for (int it = 0; it < kIters; ++it) {
      uint64_t mask = 1 + it % 3;
      for (int i = 0; i < 3; ++i)
        buf[i] = it * 100 + d * 10 + i;
      TestSite sum = makeSite(PCC_ALL_REDUCE, PCC_I64, PCC_SUM, 3, mask,
                              {dims[0], dims[1]});
      pcc_collective(&sum.site, nullptr, kTestSite, d, buf, buf);
      for (int i = 0; i < 3; ++i) {
        int64_t base = it * 100 + i;
        int64_t want = mask == 1   ? 2 * base + 10 * (2 * col + 2)
                       : mask == 2 ? 2 * base + 10 * (4 * row + 1)
                                   : 4 * base + 60;
        bad[size_t(d)] += buf[i] != want;
      }
      *mine = it * 10 + d;
      TestSite gather =
          makeSite(PCC_ALL_GATHER, PCC_I64, 0, 1, mask, {dims[0], dims[1]});
      pcc_collective(&gather.site, nullptr, kTestSite, d, mine, gathered);
      int64_t j = 0;
      for (int64_t e = 0; e < 4; ++e)
        if ((mask & 1 || e / 2 == row) && (mask & 2 || e % 2 == col))
          bad[size_t(d)] += gathered[j++] != it * 10 + e;
    }
    pcc_cuda_free(buf);
    pcc_cuda_free(gathered);
    pcc_cuda_free(mine);
  });
  for (int d = 0; d < 4; ++d)
    EXPECT_EQ(bad[size_t(d)], 0) << "device " << d;
}

/// reduce-scatter (within two groups of half the devices), all-to-all and a
/// ring permute with a hole, through the entry points generated code calls,
/// against results computed here. With 4 devices each has a GPU (NCCL:
/// ncclReduceScatter, grouped ncclSend/ncclRecv); with 8, devices share
/// them (pcc's own kernels and copies).
TEST_F(Cuda, DataMovementOnBothPaths) {
  for (int64_t n : {4, 8}) {
    if (n > numGpus() && n == 4)
      continue;
    int64_t dims[1] = {n};
    // Groups {0, 2, 4, ...} and {1, 3, 5, ...} in pcc_runtime.h's layout.
    std::vector<int64_t> table(size_t(4 * n));
    for (int64_t p = 0; p < n; ++p) {
      int64_t place = (p % 2) * (n / 2) + p / 2;
      table[size_t(place)] = p;
      table[size_t(n + p)] = place;
      table[size_t(2 * n + p)] = (p % 2) * (n / 2);
      table[size_t(3 * n + p)] = n / 2;
    }
    std::vector<int64_t> ring(static_cast<size_t>(n));
    for (int64_t d = 0; d < n; ++d)
      ring[size_t(d)] = d - 1; // device 0 receives zeros
    constexpr int64_t kPart = 3;
    std::vector<int> bad(size_t(n), 0);
    launch(n, [&](int64_t d) {
      int64_t count = n * kPart, half = n / 2;
      auto *in = static_cast<int32_t *>(pcc_cuda_alloc(4 * count));
      auto *out = static_cast<int32_t *>(pcc_cuda_alloc(4 * count));
      for (int64_t i = 0; i < count; ++i)
        in[i] = int32_t(d * 1000 + i);
      std::vector<int64_t> grid{dims[0]};
      // Within its group, member k keeps part k of the group's sum.
      TestSite scatter =
          makeSite(PCC_REDUCE_SCATTER, PCC_I32, PCC_SUM, half * kPart, 1, grid);
      scatter.site.table_size = 4 * n;
      pcc_collective(&scatter.site, table.data(), kTestSite, d, in, out);
      int64_t k = d / 2;
      for (int64_t i = 0; i < kPart; ++i) {
        int64_t want = 0;
        for (int64_t m = d % 2; m < n; m += 2)
          want += m * 1000 + k * kPart + i;
        bad[size_t(d)] += out[i] != want;
      }
      // Chunk j of the output is chunk d of device j's input.
      TestSite exchange = makeSite(PCC_ALL_TO_ALL, PCC_I32, 0, count, 1, grid);
      pcc_collective(&exchange.site, nullptr, kTestSite, d, in, out);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < kPart; ++i)
          bad[size_t(d)] += out[j * kPart + i] != j * 1000 + d * kPart + i;
      TestSite shift = makeSite(PCC_PERMUTE, PCC_I32, 0, count, 1, grid);
      shift.site.table_size = n;
      pcc_collective(&shift.site, ring.data(), kTestSite, d, in, out);
      for (int64_t i = 0; i < count; ++i)
        bad[size_t(d)] += out[i] != (d == 0 ? 0 : (d - 1) * 1000 + i);
      pcc_cuda_free(in);
      pcc_cuda_free(out);
    });
    for (int64_t d = 0; d < n; ++d)
      EXPECT_EQ(bad[size_t(d)], 0) << "device " << d << " of " << n;
  }
}

//===----------------------------------------------------------------------===//
// Fatal errors
//===----------------------------------------------------------------------===//

#ifndef PCC_NO_DEATH_TESTS

class CudaDeathTest : public Cuda {
protected:
  void SetUp() override {
    Cuda::SetUp();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
};

TEST_F(CudaDeathTest, MissingKernelIsNamed) {
  EXPECT_EXIT(mgpuModuleGetFunction(mgpuModuleLoadJIT(kTestKernel, 2), "nope"),
              testing::ExitedWithCode(1),
              "pcc: error: kernel 'nope' is not in its GPU module: "
              "CUDA_ERROR_NOT_FOUND");
}

TEST_F(CudaDeathTest, BadPtxPrintsTheLog) {
  static char bad[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                      ".visible .entry bad()\n{\n  bogus;\n}\n";
  EXPECT_EXIT(mgpuModuleGetFunction(mgpuModuleLoadJIT(bad, 2), "bad"),
              testing::ExitedWithCode(1),
              "pcc: error: cannot load a GPU module on GPU 0: "
              "CUDA_ERROR_INVALID_PTX");
}

TEST_F(CudaDeathTest, OutOfMemory) {
  EXPECT_EXIT(pcc_cuda_alloc(int64_t(1) << 50), testing::ExitedWithCode(1),
              "pcc: error: cannot allocate 1125899906842624 bytes of GPU "
              "memory: CUDA_ERROR_");
}

#ifndef PCC_SIM_GPUS
// A GPU reports a kernel's illegal address when the stream synchronizes; the
// simulated GPU stops at the faulting access itself, naming the kernel, its
// block and thread (test/CUDA/sim-faults.test).
TEST_F(CudaDeathTest, FailedKernelIsNamed) {
  EXPECT_EXIT(addOnGpu(mgpuModuleLoadJIT(kTestKernel, 2), nullptr, 1000, 1),
              testing::ExitedWithCode(1),
              "pcc: error: GPU work failed \\(the last kernel launched was "
              "'pcc_test_add'\\): CUDA_ERROR_");
}
#endif

TEST_F(CudaDeathTest, BadLaunchIsNamed) {
  auto badLaunch = [] {
    void *module = mgpuModuleLoadJIT(kTestKernel, 2);
    void *function = mgpuModuleGetFunction(module, "pcc_test_add");
    int32_t *data = nullptr;
    uint32_t n = 0;
    int32_t value = 0;
    void *params[] = {&data, &n, &value};
    mgpuLaunchKernel(function, 1, 1, 1, 4096, 1, 1, 0, mgpuStreamCreate(),
                     params, nullptr, 3);
  };
  EXPECT_EXIT(badLaunch(), testing::ExitedWithCode(1),
              "pcc: error: cannot launch kernel 'pcc_test_add' \\(1x1x1 "
              "blocks of 4096x1x1 threads");
}

TEST_F(CudaDeathTest, ClustersAreRefused) {
  auto clusterLaunch = [] {
    void *module = mgpuModuleLoadJIT(kTestKernel, 2);
    void *function = mgpuModuleGetFunction(module, "pcc_test_add");
    mgpuLaunchClusterKernel(function, 2, 1, 1, 2, 1, 1, 32, 1, 1, 0,
                            mgpuStreamCreate(), nullptr, nullptr);
  };
  EXPECT_EXIT(clusterLaunch(), testing::ExitedWithCode(1),
              "pcc: error: kernel 'pcc_test_add' asks for thread block "
              "clusters");
}

TEST_F(CudaDeathTest, MissingPeerTimesOut) {
  // Device 1 never reaches the all-reduce of device 0.
  auto lonelyReduce = [] {
    setenv("PCC_COLLECTIVE_TIMEOUT", "0.5", 1);
    launch(2, [](int64_t d) {
      if (d != 0)
        return;
      int64_t dims[1] = {2};
      auto *x = static_cast<float *>(pcc_cuda_alloc(4));
      TestSite sum =
          makeSite(PCC_ALL_REDUCE, PCC_F32, PCC_SUM, 1, 1, {dims[0]});
      pcc_collective(&sum.site, nullptr, kTestSite, 0, x, x);
    });
  };
  EXPECT_EXIT(lonelyReduce(), testing::ExitedWithCode(1),
              "`test collective`: device 0 waited more than 0.5 s .* never "
              "arrived: device 1, which is not in a collective");
}

#endif // PCC_NO_DEATH_TESTS

#ifdef PCC_SIM_GPUS
//===----------------------------------------------------------------------===//
// The simulated GPU's threads: barriers, shuffles and faults
//===----------------------------------------------------------------------===//

/// Launches `kernel` (a host function, as the cuda-sim pipeline compiles
/// kernels) with one pointer parameter over `blocks` blocks of `threads`.
void launchSim(void (*kernel)(void **, pcc_sim_thread *), int64_t shared,
               void *data, unsigned blocks, unsigned threads) {
  static const int64_t sizes[] = {8};
  pcc_sim_kernel entry = {"sim_test", kernel, 1, sizes, shared};
  pcc_sim_image image = {PCC_SIM_IMAGE_MAGIC, 1, &entry};
  void *module = mgpuModuleLoad(&image, sizeof(image));
  void *function = mgpuModuleGetFunction(module, "sim_test");
  void *stream = mgpuStreamCreate();
  void *params[] = {&data};
  mgpuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, stream, params,
                   nullptr, 1);
  mgpuStreamSynchronize(stream);
  mgpuModuleUnload(module);
}

template <typename T> T *param(void **params) {
  T *data;
  std::memcpy(&data, params[0], sizeof(data));
  return data;
}

/// A block-wide tree sum through shared memory: wrong without barriers
/// that hold every thread until all have written.
void treeSum(void **params, pcc_sim_thread *thread) {
  auto *out = param<int64_t>(params);
  auto *partial = reinterpret_cast<int64_t *>(thread->shared);
  uint32_t t = thread->thread_id[0], n = thread->block_dim[0];
  partial[t] = int64_t(thread->block_id[0]) * 1000 + t;
  for (uint32_t stride = n / 2; stride > 0; stride /= 2) {
    pcc_sim_barrier(thread, "sum");
    if (t < stride)
      partial[t] += partial[t + stride];
  }
  pcc_sim_barrier(thread, "end");
  if (t == 0)
    out[thread->block_id[0]] = partial[0];
}

TEST_F(Cuda, SimulatedBarriersSynchronizeBlocks) {
  auto *out = static_cast<int64_t *>(pcc_cuda_alloc(3 * 8));
  launchSim(treeSum, 256 * 8, out, 3, 256);
  for (int64_t b = 0; b < 3; ++b)
    EXPECT_EQ(out[b], b * 1000 * 256 + 255 * 256 / 2) << b;
  pcc_cuda_free(out);
}

/// Each lane records the value gpu.shuffle gives it in each mode, and
/// whether the source lane was in range.
void shuffles(void **params, pcc_sim_thread *thread) {
  auto *out = param<int64_t>(params);
  uint32_t t = thread->thread_id[0];
  for (int32_t mode = 0; mode < 4; ++mode) {
    int32_t offset = mode == 3 ? 5 : 3;
    uint64_t value = pcc_sim_shuffle(thread, 100 + t, offset, 32, mode, "s");
    out[(mode * 64 + t) * 2] = int64_t(value);
    out[(mode * 64 + t) * 2 + 1] = thread->shuffle_valid;
  }
}

TEST_F(Cuda, SimulatedShufflesFollowGpuShuffle) {
  // 48 threads: a full warp and a partial one of 16 lanes, where a source
  // lane past the 16th is out of range.
  auto *out = static_cast<int64_t *>(pcc_cuda_alloc(4 * 64 * 2 * 8));
  launchSim(shuffles, 0, out, 1, 48);
  for (int32_t mode = 0; mode < 4; ++mode)
    for (int64_t t = 0; t < 48; ++t) {
      int64_t lane = t % 32, warp = t - lane, source;
      switch (mode) {
      case 0:
        source = lane ^ 3;
        break;
      case 1:
        source = lane - 3;
        break;
      case 2:
        source = lane + 3;
        break;
      default:
        source = 5;
        break;
      }
      int64_t lanes = t < 32 ? 32 : 16;
      bool valid = source >= 0 && source < lanes;
      EXPECT_EQ(out[(mode * 64 + t) * 2], 100 + (valid ? warp + source : t))
          << mode << " " << t;
      EXPECT_EQ(out[(mode * 64 + t) * 2 + 1], valid) << mode << " " << t;
    }
  pcc_cuda_free(out);
}

#ifndef PCC_NO_DEATH_TESTS
void barrierSkippedByOne(void **, pcc_sim_thread *thread) {
  if (thread->thread_id[0] != 5)
    pcc_sim_barrier(thread, "test.mlir:3:5: gpu.barrier");
}

void twoBarriers(void **, pcc_sim_thread *thread) {
  pcc_sim_barrier(thread, thread->thread_id[0] % 2 ? "test.mlir:4:1: odd"
                                                   : "test.mlir:5:1: even");
}

void shuffleSkippedByOne(void **, pcc_sim_thread *thread) {
  if (thread->thread_id[0] != 7)
    pcc_sim_shuffle(thread, 1, 1, 32, 0, "test.mlir:6:2: gpu.shuffle");
}

/// Lanes [0, 8) take part in a shuffle of width 8; lanes 8 and 9 may not.
void shuffleOutsideItsWidth(void **, pcc_sim_thread *thread) {
  if (thread->thread_id[0] < 10)
    pcc_sim_shuffle(thread, 1, 1, 8, 0, "test.mlir:8:2: gpu.shuffle");
}

void outOfBounds(void **, pcc_sim_thread *thread) {
  if (thread->block_id[0] == 1 && thread->thread_id[0] == 3)
    pcc_sim_out_of_bounds(thread, "test.mlir:7:3: memref.load", 0, 8, 8);
}

TEST_F(CudaDeathTest, SimulatedFaultsNameKernelBlockAndThread) {
  EXPECT_EXIT(launchSim(barrierSkippedByOne, 0, nullptr, 1, 64),
              testing::ExitedWithCode(1),
              "pcc runtime error: GPU kernel 'sim_test', block \\(0, 0, 0\\), "
              "thread \\([0-9]+, 0, 0\\): waits at the barrier at "
              "test.mlir:3:5: gpu.barrier that thread \\(5, 0, 0\\) of its "
              "block returned without reaching");
  EXPECT_EXIT(launchSim(twoBarriers, 0, nullptr, 1, 4),
              testing::ExitedWithCode(1),
              "waits at the barrier at test.mlir:.* while thread \\([0-9], 0, "
              "0\\) of its block waits at another at test.mlir:");
  EXPECT_EXIT(launchSim(shuffleSkippedByOne, 0, nullptr, 1, 32),
              testing::ExitedWithCode(1),
              "waits in a warp shuffle at test.mlir:6:2: gpu.shuffle that "
              "thread \\(7, 0, 0\\) of its warp returned without reaching");
  EXPECT_EXIT(launchSim(shuffleOutsideItsWidth, 0, nullptr, 1, 32),
              testing::ExitedWithCode(1),
              "thread \\(8, 0, 0\\): is lane 8 of a warp shuffle at "
              "test.mlir:8:2: gpu.shuffle of width 8, in which only lanes "
              "below the width take part");
  EXPECT_EXIT(launchSim(outOfBounds, 0, nullptr, 2, 8),
              testing::ExitedWithCode(1),
              "pcc runtime error: GPU kernel 'sim_test', block \\(1, 0, 0\\), "
              "thread \\(3, 0, 0\\): test.mlir:7:3: memref.load: index 8 is "
              "out of bounds for axis 0 with size 8");
}
#endif // PCC_NO_DEATH_TESTS
#endif // PCC_SIM_GPUS

} // namespace
