//===- CudaDriver.cpp - Load the CUDA driver API with dlopen -------------===//
//
// Fills the driver table of CudaDriver.h from libcuda.so.1, found by the
// system's library search only (never a relative path or the working
// directory), and initializes the driver. Done once per process: the answer,
// a driver or the reason there is none, is kept for every later caller.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

namespace pcc::runtime::cuda {
namespace {

/// Resolves `name` into `function`; records the first missing name.
template <typename F>
void resolve(void *library, const char *name, F &function,
             const char *&missing) {
  function = reinterpret_cast<F>(dlsym(library, name));
  if (!function && !missing)
    missing = name;
}

struct LoadState {
  std::once_flag once;
  Driver driver{};
  bool loaded = false;
  int gpus = 0;
  std::string message;
};

LoadState &loadState() {
  static LoadState *state = new LoadState;
  return *state;
}

void initialize(LoadState &s);

void load(LoadState &s) {
  if (isSimulated()) {
    s.driver = simulatedDriver();
    initialize(s);
    return;
  }
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    s.message = std::string("no CUDA driver: libcuda.so.1 could not be "
                            "loaded (") +
                (reason ? reason : "not found") +
                "); install the NVIDIA driver or use --backend=cpu";
    return;
  }
  Driver &d = s.driver;
  const char *missing = nullptr;
  // The versioned names are those cuda.h maps the API names to.
  resolve(library, "cuInit", d.cuInit, missing);
  resolve(library, "cuGetErrorName", d.cuGetErrorName, missing);
  resolve(library, "cuGetErrorString", d.cuGetErrorString, missing);
  resolve(library, "cuDeviceGetCount", d.cuDeviceGetCount, missing);
  resolve(library, "cuDeviceGet", d.cuDeviceGet, missing);
  resolve(library, "cuDeviceGetName", d.cuDeviceGetName, missing);
  resolve(library, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, missing);
  resolve(library, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain,
          missing);
  resolve(library, "cuCtxSetCurrent", d.cuCtxSetCurrent, missing);
  resolve(library, "cuCtxPushCurrent_v2", d.cuCtxPushCurrent, missing);
  resolve(library, "cuCtxPopCurrent_v2", d.cuCtxPopCurrent, missing);
  resolve(library, "cuStreamCreate", d.cuStreamCreate, missing);
  resolve(library, "cuStreamSynchronize", d.cuStreamSynchronize, missing);
  resolve(library, "cuStreamQuery", d.cuStreamQuery, missing);
  resolve(library, "cuStreamWaitEvent", d.cuStreamWaitEvent, missing);
  resolve(library, "cuEventCreate", d.cuEventCreate, missing);
  resolve(library, "cuEventDestroy_v2", d.cuEventDestroy, missing);
  resolve(library, "cuEventRecord", d.cuEventRecord, missing);
  resolve(library, "cuEventSynchronize", d.cuEventSynchronize, missing);
  resolve(library, "cuMemAllocManaged", d.cuMemAllocManaged, missing);
  resolve(library, "cuMemFree_v2", d.cuMemFree, missing);
  resolve(library, "cuMemcpyAsync", d.cuMemcpyAsync, missing);
  resolve(library, "cuMemsetD8Async", d.cuMemsetD8Async, missing);
  resolve(library, "cuMemsetD16Async", d.cuMemsetD16Async, missing);
  resolve(library, "cuMemsetD32Async", d.cuMemsetD32Async, missing);
  resolve(library, "cuModuleLoadDataEx", d.cuModuleLoadDataEx, missing);
  resolve(library, "cuModuleUnload", d.cuModuleUnload, missing);
  resolve(library, "cuModuleGetFunction", d.cuModuleGetFunction, missing);
  resolve(library, "cuFuncSetAttribute", d.cuFuncSetAttribute, missing);
  resolve(library, "cuLaunchKernel", d.cuLaunchKernel, missing);
  if (missing) {
    s.message = std::string("libcuda.so.1 lacks ") + missing +
                "; the NVIDIA driver is too old or its installation is "
                "broken (or use --backend=cpu)";
    return;
  }
  initialize(s);
}

/// Initializes the driver of `s` and counts its GPUs.
void initialize(LoadState &s) {
  const Driver &d = s.driver;
  if (CUresult result = d.cuInit(0)) {
    s.message =
        "the CUDA driver found no usable GPU (cuInit: " + describe(d, result) +
        "); use --backend=cpu";
    return;
  }
  if (CUresult result = d.cuDeviceGetCount(&s.gpus)) {
    s.message = "cuDeviceGetCount failed: " + describe(d, result) +
                "; use --backend=cpu";
    return;
  }
  if (s.gpus <= 0) {
    s.message = "the CUDA driver reports no GPU; use --backend=cpu";
    return;
  }
  s.loaded = true;
}

} // namespace

const Driver *loadDriver(int &gpus, std::string &message) {
  LoadState &s = loadState();
  std::call_once(s.once, load, s);
  gpus = s.loaded ? s.gpus : 0;
  if (!s.loaded) {
    message = s.message;
    return nullptr;
  }
  return &s.driver;
}

std::string describe(const Driver &driver, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driver.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (driver.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = nullptr;
  std::string out = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

} // namespace pcc::runtime::cuda
