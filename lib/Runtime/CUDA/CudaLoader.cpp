//===- CudaLoader.cpp - find the CUDA driver and NCCL at run time --------===//
//
// The cuda backend loads the CUDA driver (libcuda.so.1, see CudaDriver.cpp)
// and NCCL (libnccl.so.2) with dlopen, so that one build of pcc runs on
// machines with and without GPUs, and a missing library is a clear error
// rather than a failed start. Only absolute paths or the system's library
// search are used: nothing named by the program or found in the working
// directory is loaded.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "CudaDriver.h"
#include "Sim.h"

#include <dlfcn.h>
#include <glob.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
/// Writes a formatted message into the caller's buffer.
void setMessage(char *message, size_t size, const char *format, ...) {
  if (!message || size == 0)
    return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, size, format, args);
  va_end(args);
}

/// Set once, by pcc_cuda_simulate, before the driver is loaded.
std::atomic<bool> simulated{false};
} // namespace

bool pcc::runtime::cuda::isSimulated() { return simulated.load(); }

extern "C" int32_t pcc_cuda_simulate(int64_t gpus, char *message, size_t size) {
  std::string reason;
  if (!pcc::sim::configure(gpus, reason)) {
    setMessage(message, size, "%s", reason.c_str());
    return 1;
  }
  simulated = true;
  return 0;
}

extern "C" int64_t pcc_cuda_probe(char *message, size_t size) {
  int gpus = 0;
  std::string reason;
  if (!pcc::runtime::cuda::loadDriver(gpus, reason)) {
    setMessage(message, size, "%s", reason.c_str());
    return 0;
  }
  setMessage(message, size, "%d GPU%s", gpus, gpus == 1 ? "" : "s");
  return gpus;
}

extern "C" void *pcc_nccl_load(char *message, size_t size) {
  // 1. PCC_NCCL_LIBRARY, which must be an absolute path.
  if (const char *path = std::getenv("PCC_NCCL_LIBRARY"); path && *path) {
    if (path[0] != '/') {
      setMessage(message, size,
                 "PCC_NCCL_LIBRARY must be an absolute path, got '%s'", path);
      return nullptr;
    }
    if (void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))
      return handle;
    setMessage(message, size, "PCC_NCCL_LIBRARY=%s could not be loaded (%s)",
               path, dlerror());
    return nullptr;
  }
  // 2. The system's library search.
  if (void *handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL))
    return handle;
  // 3. The lib/ of a Python nvidia-nccl-cu* wheel, at absolute locations.
  const char *patterns[] = {
      "/usr/local/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so.2",
      "/usr/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
      "/opt/*/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
  };
  for (const char *pattern : patterns) {
    glob_t matches;
    if (glob(pattern, 0, nullptr, &matches) == 0) {
      for (size_t i = 0; i < matches.gl_pathc; ++i)
        if (void *handle = dlopen(matches.gl_pathv[i], RTLD_NOW | RTLD_LOCAL)) {
          globfree(&matches);
          return handle;
        }
    }
    globfree(&matches);
  }
  setMessage(message, size,
             "NCCL not found: set PCC_NCCL_LIBRARY to the absolute path of "
             "libnccl.so.2, install it system-wide, or install the "
             "nvidia-nccl-cu13 Python wheel");
  return nullptr;
}
