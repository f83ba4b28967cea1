//===- CudaLoader.cpp - find the CUDA driver and NCCL at run time --------===//
//
// The cuda backend loads the CUDA driver (libcuda.so.1) and NCCL
// (libnccl.so.2) with dlopen, so that one build of pcc runs on machines with
// and without GPUs, and a missing library is a clear error rather than a
// failed start. Only absolute paths or the system's library search are used:
// nothing named by the program or found in the working directory is loaded.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include <dlfcn.h>
#include <glob.h>

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

using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int *);
using CuGetErrorName = int (*)(int, const char **);

/// The name of a CUresult, such as CUDA_ERROR_NO_DEVICE.
std::string cudaErrorName(void *driver, int result) {
  auto getName =
      reinterpret_cast<CuGetErrorName>(dlsym(driver, "cuGetErrorName"));
  const char *name = nullptr;
  if (getName && getName(result, &name) == 0 && name)
    return name;
  return "CUDA error " + std::to_string(result);
}
} // namespace

extern "C" int64_t pcc_cuda_probe(char *message, size_t size) {
  // The system's search only (no path): the driver lives where the NVIDIA
  // installation put it.
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    setMessage(message, size,
               "no CUDA driver: libcuda.so.1 could not be loaded (%s); "
               "install the NVIDIA driver or use --backend=cpu",
               dlerror());
    return 0;
  }
  auto init = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
  auto count =
      reinterpret_cast<CuDeviceGetCount>(dlsym(driver, "cuDeviceGetCount"));
  if (!init || !count) {
    setMessage(message, size,
               "libcuda.so.1 lacks cuInit or cuDeviceGetCount; the NVIDIA "
               "driver installation is broken");
    return 0;
  }
  if (int result = init(0)) {
    setMessage(message, size,
               "the CUDA driver found no usable GPU (cuInit: %s); use "
               "--backend=cpu",
               cudaErrorName(driver, result).c_str());
    return 0;
  }
  int devices = 0;
  if (int result = count(&devices)) {
    setMessage(message, size, "cuDeviceGetCount failed: %s",
               cudaErrorName(driver, result).c_str());
    return 0;
  }
  if (devices == 0)
    setMessage(message, size,
               "the CUDA driver reports no GPU; use "
               "--backend=cpu");
  else
    setMessage(message, size, "%d GPU%s", devices, devices == 1 ? "" : "s");
  return devices;
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
