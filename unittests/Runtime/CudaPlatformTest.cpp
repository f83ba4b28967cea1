//===- CudaPlatformTest.cpp - The cuda platform without a GPU ------------===//
//
// What of the cuda platform can be checked on any machine: its answer when
// no driver or GPU is usable, the placement of logical devices on GPUs and
// its error message, the choice between NCCL and pcc's own kernels for each
// grid and set of axes, the host reduction used when the kernels are not
// built, module registration before any context exists, and the embedded
// PTX (every kernel present, and accepted by ptxas for sm_90 when the CUDA
// toolkit is installed). cuda-runtime-tests covers the rest on a GPU.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Collectives.h"
#include "CudaPlatform.h"
#include "CudaTestKernel.h"

#include "gtest/gtest.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace pcc::runtime;

namespace {

bool gpuPresent() {
  char message[512];
  return pcc_cuda_probe(message, sizeof(message)) > 0;
}

TEST(CudaPlatform, InitWithoutGpuExplains) {
  if (gpuPresent())
    GTEST_SKIP() << "a GPU is present";
  for (int64_t devices : {0, 1, 4}) {
    char message[512] = "";
    EXPECT_NE(pcc_cuda_init(devices, 0, message, sizeof(message)), 0);
    std::string text = message;
    EXPECT_NE(text.find("--backend=cpu"), std::string::npos) << text;
    // Names what is missing: the driver library, or a usable GPU.
    EXPECT_TRUE(text.find("libcuda.so.1") != std::string::npos ||
                text.find("GPU") != std::string::npos)
        << text;
  }
}

TEST(CudaPlatform, Placement) {
  std::string message;
  EXPECT_TRUE(checkPlacement(0, 1, false, message));
  EXPECT_TRUE(checkPlacement(1, 1, false, message));
  EXPECT_TRUE(checkPlacement(2, 2, false, message));
  EXPECT_TRUE(checkPlacement(3, 8, false, message));
  EXPECT_TRUE(checkPlacement(4, 1, true, message));
  EXPECT_TRUE(checkPlacement(8, 3, true, message));

  EXPECT_FALSE(checkPlacement(4, 1, false, message));
  EXPECT_EQ(message, "the program runs on 4 devices but 1 GPU is present; "
                     "pass --oversubscribe to place several devices on one "
                     "GPU, or use --backend=cpu");
  EXPECT_FALSE(checkPlacement(3, 2, false, message));
  EXPECT_EQ(message, "the program runs on 3 devices but 2 GPUs are present; "
                     "pass --oversubscribe to place several devices on one "
                     "GPU, or use --backend=cpu");
  EXPECT_FALSE(checkPlacement(-1, 2, true, message));
  EXPECT_FALSE(checkPlacement(2, 1, false, message, 2));
  EXPECT_EQ(message, "the program runs on 4 devices, 2 in each of 2 "
                     "processes, but 1 GPU is present; pass --oversubscribe "
                     "to place several devices on one GPU, or use "
                     "--backend=cpu");

  // A process's device i runs on GPU (first + i) % gpus.
  EXPECT_EQ(gpuOfDevice(0, 0, 1), 0);
  EXPECT_EQ(gpuOfDevice(3, 0, 1), 0);
  EXPECT_EQ(gpuOfDevice(3, 0, 2), 1);
  EXPECT_EQ(gpuOfDevice(5, 0, 3), 2);
  // The second of two processes with two devices each, on 4 GPUs.
  EXPECT_EQ(gpuOfDevice(0, 2, 4), 2);
  EXPECT_EQ(gpuOfDevice(1, 2, 4), 3);
  // ... on 3 GPUs: the processes share one.
  EXPECT_EQ(gpuOfDevice(1, 2, 3), 0);
}

TEST(CudaPlatform, CollectivePathOneAxis) {
  const int64_t dims[] = {4};
  // Groups of one member copy.
  EXPECT_EQ(chooseCollectivePath(1, dims, 0, {1}), CudaCollectivePath::Local);
  EXPECT_EQ(chooseCollectivePath(1, dims, 0, {4}), CudaCollectivePath::Local);
  // A GPU per device: NCCL; devices sharing GPUs: pcc's kernels.
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {4}), CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {8}), CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {3}), CudaCollectivePath::Peer);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1}), CudaCollectivePath::Peer);
  const int64_t one[] = {1};
  EXPECT_EQ(chooseCollectivePath(1, one, 1, {1}), CudaCollectivePath::Local);
  // Under mpirun, each process's devices on its own GPUs.
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {2, 2}), CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1, 4}), CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1, 2}), CudaCollectivePath::Peer);
  // A group across processes: NCCL where the devices of the processes on a
  // machine have GPUs of their own, else the host's collective between
  // processes (NCCL refuses ranks of several processes on one GPU).
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {4, 2, 2}, true),
            CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {2, 2, 1}, true),
            CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {2, 2, 2}, true),
            CudaCollectivePath::Processes);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1, 4, 4}, true),
            CudaCollectivePath::Processes);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1, 4, 1}, true),
            CudaCollectivePath::Nccl);
  // The simulated NCCL reaches the processes of one machine only.
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {4, 2, 2, false}, true),
            CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(1, dims, 1, {1, 4, 1, false}, true),
            CudaCollectivePath::Processes);
}

TEST(CudaPlatform, CollectivePathGrid) {
  const int64_t dims[] = {2, 3};
  for (uint64_t mask = 1; mask < 4; ++mask) {
    EXPECT_EQ(chooseCollectivePath(2, dims, mask, {6}), CudaCollectivePath::Nccl)
        << mask;
    EXPECT_EQ(chooseCollectivePath(2, dims, mask, {8}), CudaCollectivePath::Nccl)
        << mask;
    // Some GPU holds two devices, even where a group's members would be on
    // distinct GPUs (axis 1 on 3 GPUs): two threads would issue NCCL work to
    // one GPU in no agreed order.
    EXPECT_EQ(chooseCollectivePath(2, dims, mask, {3}), CudaCollectivePath::Peer)
        << mask;
    EXPECT_EQ(chooseCollectivePath(2, dims, mask, {1}), CudaCollectivePath::Peer)
        << mask;
  }
  EXPECT_EQ(chooseCollectivePath(2, dims, 0, {1}), CudaCollectivePath::Local);
  // An axis of size 1 makes a group of one.
  const int64_t column[] = {4, 1};
  EXPECT_EQ(chooseCollectivePath(2, column, 2, {1}), CudaCollectivePath::Local);
  EXPECT_EQ(chooseCollectivePath(2, column, 3, {4}), CudaCollectivePath::Nccl);
  const int64_t cube[] = {2, 2, 2};
  EXPECT_EQ(chooseCollectivePath(3, cube, 5, {8}), CudaCollectivePath::Nccl);
  EXPECT_EQ(chooseCollectivePath(3, cube, 5, {4}), CudaCollectivePath::Peer);
}

TEST(CudaPlatform, KernelNames) {
  std::set<std::string> names;
  for (int32_t reduction : {PCC_SUM, PCC_MAX, PCC_MIN})
    for (int32_t dtype = PCC_I8; dtype <= PCC_F64; ++dtype) {
      const char *name = collectiveKernelName(reduction, dtype);
      ASSERT_NE(name, nullptr);
      names.insert(name);
    }
  EXPECT_EQ(names.size(), 24u);
  EXPECT_STREQ(collectiveKernelName(PCC_SUM, PCC_BF16), "pcc_reduce_sum_bf16");
  EXPECT_EQ(collectiveKernelName(PCC_SUM, PCC_I1), nullptr);
  EXPECT_EQ(collectiveKernelName(3, PCC_F32), nullptr);
}

TEST(CudaPlatform, EmbeddedPtxHasEveryKernel) {
  const char *ptx = collectiveKernelsPtx();
  if (!ptx)
    GTEST_SKIP() << "built without nvcc";
  std::string text = ptx;
  for (int32_t reduction : {PCC_SUM, PCC_MAX, PCC_MIN})
    for (int32_t dtype = PCC_I8; dtype <= PCC_F64; ++dtype) {
      std::string entry =
          std::string(".entry ") + collectiveKernelName(reduction, dtype) + "(";
      EXPECT_NE(text.find(entry), std::string::npos) << entry;
    }
}

/// Whether ptxas accepts `ptx` for sm_90.
testing::AssertionResult ptxasAccepts(const char *ptxas, const char *ptx) {
  char path[] = "/tmp/pcc-ptx-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return testing::AssertionFailure() << "cannot create a temporary file";
  FILE *file = fdopen(fd, "w");
  std::fputs(ptx, file);
  std::fclose(file);
  std::string command =
      std::string(ptxas) + " -arch=sm_90 " + path + " -o /dev/null 2>&1";
  int status = std::system(command.c_str());
  std::remove(path);
  if (status != 0)
    return testing::AssertionFailure() << command << " failed";
  return testing::AssertionSuccess();
}

const char *kPtxas = "/usr/local/cuda/bin/ptxas";

TEST(CudaPlatform, PtxasAcceptsTheKernels) {
  const char *ptx = collectiveKernelsPtx();
  if (!ptx || access(kPtxas, X_OK) != 0)
    GTEST_SKIP() << "no embedded PTX or no " << kPtxas;
  EXPECT_TRUE(ptxasAccepts(kPtxas, ptx));
}

TEST(CudaPlatform, PtxasAcceptsTheTestKernel) {
  if (access(kPtxas, X_OK) != 0)
    GTEST_SKIP() << "no " << kPtxas;
  EXPECT_TRUE(ptxasAccepts(kPtxas, pcc::test::kTestKernelPtx));
}

TEST(CudaPlatform, ModulesRegisterWithoutADriver) {
  // Global constructors register modules before pcc_cuda_init, on machines
  // without a GPU too (a program without pmap still links its kernels).
  void *module = mgpuModuleLoad(const_cast<char *>(pcc::test::kTestKernelPtx),
                                sizeof(pcc::test::kTestKernelPtx));
  ASSERT_NE(module, nullptr);
  mgpuModuleUnload(module);
  module = mgpuModuleLoadJIT(const_cast<char *>(pcc::test::kTestKernelPtx), 2);
  ASSERT_NE(module, nullptr);
  mgpuModuleUnload(module);
  mgpuModuleUnload(nullptr);
}

TEST(CudaPlatform, HostReductionFallback) {
  // f16: 1 + 2^-11 + 2^-11 rounds once (to 1 + 2^-10).
  uint16_t a = 0x3c00, b = 0x1000, c = 0x1000, out = 0;
  const void *inputs[] = {&a, &b, &c};
  hostReduce(PCC_SUM, PCC_F16, inputs, 3, &out, 1);
  EXPECT_EQ(out, 0x3c01);
  // In place, over several elements, max of i32.
  int32_t x[3] = {1, -5, 7}, y[3] = {2, -6, 7};
  const void *pair[] = {x, y};
  hostReduce(PCC_MAX, PCC_I32, pair, 2, x, 3);
  EXPECT_EQ(x[0], 2);
  EXPECT_EQ(x[1], -5);
  EXPECT_EQ(x[2], 7);
}

} // namespace
