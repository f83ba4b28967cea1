//===- CudaLoaderTest.cpp - finding the CUDA driver and NCCL -------------===//
//
// The loader's answers on this machine, whatever it has: a GPU count with a
// matching message, and NCCL paths that are refused or reported clearly.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

TEST(CudaLoader, ProbeExplainsItsAnswer) {
  char message[512] = "";
  int64_t gpus = pcc_cuda_probe(message, sizeof(message));
  std::string text = message;
  ASSERT_GE(gpus, 0);
  if (gpus == 0)
    EXPECT_NE(text.find("--backend=cpu"), std::string::npos) << text;
  else
    EXPECT_NE(text.find("GPU"), std::string::npos) << text;
}

TEST(CudaLoader, RelativeNcclPathIsRefused) {
  setenv("PCC_NCCL_LIBRARY", "libnccl.so.2", 1);
  char message[512] = "";
  EXPECT_EQ(pcc_nccl_load(message, sizeof(message)), nullptr);
  EXPECT_NE(std::string(message).find("must be an absolute path"),
            std::string::npos)
      << message;
  unsetenv("PCC_NCCL_LIBRARY");
}

TEST(CudaLoader, MissingNcclPathIsNamed) {
  setenv("PCC_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  char message[512] = "";
  EXPECT_EQ(pcc_nccl_load(message, sizeof(message)), nullptr);
  EXPECT_NE(std::string(message).find("/nonexistent/libnccl.so.2"),
            std::string::npos)
      << message;
  unsetenv("PCC_NCCL_LIBRARY");
}

} // namespace
