//===- CudaPlatform.cpp - Devices, memory and kernels on CUDA GPUs -------===//
//
// The cuda platform of the runtime: logical devices placed on GPUs (device d
// on GPU d % gpus, each GPU's primary context, one stream per device; under
// mpirun, each process's block of devices on its share of the GPUs), device
// threads bound to their device for the duration of a pmap body, managed
// memory for every buffer, and MLIR's mgpu* GPU runtime ABI on top of them.
// Generated code calls mgpuStreamCreate / launch / synchronize / destroy
// around every kernel; here every "created" stream is the calling thread's
// device stream, so a device's kernels, copies and collectives run in program
// order on one stream. GPU modules are registered by global constructors
// before any context exists and loaded into a GPU's context when a thread of
// that GPU first asks for one of their kernels.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "CudaPlatform.h"
#include "DevicePool.h"
#include "GpuPlatform.h"
#include "Processes.h"
#include "RuntimeError.h"
#include "StackGuard.h"
#include "Trace.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace pcc::runtime;
using namespace pcc::runtime::cuda;

namespace {

/// A GPU that logical devices run on.
struct Gpu {
  CUdevice device = 0;
  /// The primary context, retained when the GPU is first used.
  CUcontext context = nullptr;
  /// The stream of threads that are not bound to a device.
  CUstream hostStream = nullptr;
};

/// The platform's state. Never destroyed: device threads and global
/// destructors (mgpuModuleUnload) may use it while static destructors run.
struct Platform {
  std::mutex mutex;
  /// Set once, under `mutex`, and then read without it by bound threads.
  std::atomic<const Driver *> driver{nullptr};
  int gpuCount = 0;
  /// The GPU of this process's first device: under mpirun, the processes
  /// on one machine take turns through its GPUs.
  int64_t firstGpu = 0;
  bool initialized = false;
  bool oversubscribe = false;
  std::vector<Gpu> gpus;
  /// Logical devices; elements never move.
  std::vector<std::unique_ptr<CudaDevice>> devices;
};

Platform &platform() {
  static Platform *p = new Platform;
  return *p;
}

thread_local CudaDevice *boundDevice = nullptr;
/// The GPU this thread uses while it is not bound (mgpuSetDefaultDevice);
/// -1 for the process's first GPU (hostGpuOf).
thread_local int hostGpu = -1;

/// The GPU of the calling thread while it is not bound.
int hostGpuOf(const Platform &p) {
  return hostGpu >= 0 ? hostGpu : int(p.firstGpu);
}

/// The context this thread made current while unbound: skips redundant
/// cuCtxSetCurrent calls.
thread_local CUcontext hostContext = nullptr;
/// The kernel last returned by mgpuModuleGetFunction on this thread and its
/// name, and the name of the last kernel launched: for error messages.
thread_local CUfunction lastFunction = nullptr;
thread_local const char *lastFunctionName = nullptr;
thread_local const char *lastLaunched = nullptr;

[[noreturn]] void vfatal(const std::string &suffix, const char *format,
                         va_list args) {
  // Sized to fit: a message may carry a JIT error log.
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(size_t(std::max(length, 0)) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.pop_back();
  std::string line;
  if (CudaDevice *d = boundDevice)
    line += "device " + std::to_string(d->index) + " (GPU " +
            std::to_string(d->gpu) + "): ";
  reportError(line + text + suffix, "pcc: error");
  std::_Exit(1);
}

/// Sets `message` to `what: <CUDA error>` and returns false if `result` is
/// an error.
bool succeeded(const Driver &d, CUresult result, const std::string &what,
               std::string &message) {
  if (result == CUDA_SUCCESS)
    return true;
  message = what + ": " + describe(d, result);
  return false;
}

/// Retains GPU g's primary context if not yet done. Requires the mutex.
bool retainGpu(Platform &p, int g, std::string &message) {
  Gpu &gpu = p.gpus[g];
  if (gpu.context)
    return true;
  const Driver &d = *p.driver.load();
  std::string which = "GPU " + std::to_string(g);
  if (!succeeded(d, d.cuDeviceGet(&gpu.device, g), "cannot open " + which,
                 message))
    return false;
  // Host code and the other devices' threads touch managed memory while
  // kernels run; without concurrent managed access that would fault.
  int concurrent = 0;
  if (!succeeded(d,
                 d.cuDeviceGetAttribute(
                     &concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                     gpu.device),
                 "cannot query " + which, message))
    return false;
  if (!concurrent) {
    message = which +
              " cannot access managed memory concurrently with the host, "
              "which pcc's cuda backend needs; use --backend=cpu";
    return false;
  }
  return succeeded(d, d.cuDevicePrimaryCtxRetain(&gpu.context, gpu.device),
                   "cannot retain the primary context of " + which, message);
}

/// What the common runtime uses of this platform once it is in use.
void *genericAlloc(uint64_t alignment, uint64_t size) {
  return cudaGenericAlloc(alignment, size);
}
bool isDeviceThread() { return boundCudaDevice() != nullptr; }
const GpuPlatform kCudaPlatform = {genericAlloc, pcc_cuda_free, isDeviceThread,
                                   cudaCollective};

/// Loads the driver, retains the GPUs used and creates the streams of this
/// process's devices [0, numDevices). Requires the mutex.
bool initLocked(Platform &p, int64_t numDevices, bool oversubscribe,
                std::string &message) {
  if (!p.driver.load()) {
    int gpus = 0;
    const Driver *d = loadDriver(gpus, message);
    if (!d)
      return false;
    p.gpuCount = gpus;
    p.gpus.resize(size_t(gpus));
    p.firstGpu = processLayout().localRank * numDevices % gpus;
    p.driver.store(d);
    activateGpuPlatform(&kCudaPlatform);
  }
  if (!checkPlacement(numDevices, p.gpuCount, oversubscribe, message,
                      processLayout().count))
    return false;
  const Driver &d = *p.driver.load();
  int64_t used =
      std::max<int64_t>(1, std::min<int64_t>(numDevices, p.gpuCount));
  for (int64_t g = 0; g < used; ++g)
    if (!retainGpu(p, int(gpuOfDevice(g, p.firstGpu, p.gpuCount)), message))
      return false;
  for (int64_t i = int64_t(p.devices.size()); i < numDevices; ++i) {
    auto device = std::make_unique<CudaDevice>();
    device->index = i;
    device->gpu = int(gpuOfDevice(i, p.firstGpu, p.gpuCount));
    device->context = p.gpus[device->gpu].context;
    std::string which = "device " + std::to_string(i) + " (GPU " +
                        std::to_string(device->gpu) + ")";
    // Streams belong to the context current when they are created.
    hostContext = nullptr;
    if (!succeeded(d, d.cuCtxSetCurrent(device->context),
                   "cannot make the GPU of " + which + " current", message) ||
        !succeeded(d, d.cuStreamCreate(&device->stream, CU_STREAM_NON_BLOCKING),
                   "cannot create the stream of " + which, message))
      return false;
    p.devices.push_back(std::move(device));
  }
  p.initialized = true;
  p.oversubscribe = oversubscribe;
  return true;
}

/// Initializes the platform for numDevices if needed, ending the process on
/// failure. Requires the mutex.
void ensureInitialized(Platform &p, int64_t numDevices) {
  if (p.initialized && numDevices <= int64_t(p.devices.size()))
    return;
  std::string message;
  if (!initLocked(p, numDevices, p.oversubscribe, message))
    cudaFatal("%s", message.c_str());
}

/// Where the calling thread's GPU work goes.
struct Target {
  int gpu;
  CUstream stream;
};

/// Makes the calling thread's GPU context current (bound threads: their
/// device's, set at binding; others: the host GPU's) and returns its stream.
Target enter() {
  if (CudaDevice *device = boundDevice)
    return {device->gpu, device->stream};
  Platform &p = platform();
  Target target;
  CUcontext context;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    ensureInitialized(p, 0);
    target.gpu = hostGpuOf(p);
    Gpu &gpu = p.gpus[size_t(target.gpu)];
    std::string message;
    if (!retainGpu(p, target.gpu, message))
      cudaFatal("%s", message.c_str());
    if (!gpu.hostStream) {
      cudaCheck(p.driver.load()->cuCtxSetCurrent(gpu.context),
                "cannot make GPU %d current", target.gpu);
      hostContext = gpu.context;
      cudaCheck(p.driver.load()->cuStreamCreate(&gpu.hostStream,
                                                CU_STREAM_NON_BLOCKING),
                "cannot create a stream on GPU %d", target.gpu);
    }
    context = gpu.context;
    target.stream = gpu.hostStream;
  }
  if (hostContext != context) {
    cudaCheck(cudaDriver().cuCtxSetCurrent(context),
              "cannot make GPU %d current", target.gpu);
    hostContext = context;
  }
  return target;
}

/// The stream to use for `stream` from generated code: itself, or the
/// calling thread's stream for null (the legacy default stream would not be
/// ordered with the device streams, which are non-blocking).
CUstream streamOr(void *stream) {
  Target target = enter();
  return stream ? static_cast<CUstream>(stream) : target.stream;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// A module loaded into one GPU's context, with the kernels looked up so far.
struct LoadedModule {
  CUmodule module = nullptr;
  std::unordered_map<std::string, CUfunction> functions;
};

/// What mgpuModuleLoad returns: the image, loaded lazily per GPU.
struct Module {
  const void *image;
  bool jit;
  int optLevel;
  std::vector<LoadedModule> loaded; ///< Per GPU, once used.
};

struct ModuleRegistry {
  std::mutex mutex;
  /// Kernel names by function, for error messages.
  std::unordered_map<CUfunction, const char *> names;
};

ModuleRegistry &modules() {
  static ModuleRegistry *r = new ModuleRegistry;
  return *r;
}

/// Loads `module` into the current context (GPU `gpu`); a failure prints
/// the JIT's error log. Requires the registry's mutex.
void loadModule(const Module &module, LoadedModule &loaded, int gpu) {
  char log[16384] = "";
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log))),
                    reinterpret_cast<void *>(uintptr_t(module.optLevel))};
  CUresult result = cudaDriver().cuModuleLoadDataEx(
      &loaded.module, module.image, module.jit ? 3 : 2, options, values);
  log[sizeof(log) - 1] = 0;
  if (result != CUDA_SUCCESS)
    cudaFatal("cannot load a GPU module on GPU %d: %s%s%s", gpu,
              describe(cudaDriver(), result).c_str(), log[0] ? "\n" : "", log);
}

/// The name of a kernel, for error messages.
const char *kernelName(CUfunction function) {
  if (function && function == lastFunction)
    return lastFunctionName;
  ModuleRegistry &r = modules();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.names.find(function);
  return it == r.names.end() ? "<unknown>" : it->second;
}

void launch(CUfunction function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
            intptr_t blockX, intptr_t blockY, intptr_t blockZ,
            int32_t sharedBytes, void *stream, void **params, void **extra) {
  const char *name = kernelName(function);
  // An empty grid (of an empty tensor) runs nothing.
  for (intptr_t dim : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (dim == 0)
      return;
  for (intptr_t dim : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (dim < 0 || uintmax_t(dim) > UINT_MAX)
      cudaFatal("kernel '%s': invalid launch of %ldx%ldx%ld blocks of "
                "%ldx%ldx%ld threads",
                name, long(gridX), long(gridY), long(gridZ), long(blockX),
                long(blockY), long(blockZ));
  if (sharedBytes < 0)
    cudaFatal("kernel '%s': invalid shared memory size %d", name, sharedBytes);
  CUstream s = streamOr(stream);
  const Driver &d = cudaDriver();
  // Above 48 KiB, dynamic shared memory must be requested explicitly.
  if (sharedBytes > 48 * 1024)
    cudaCheck(d.cuFuncSetAttribute(
                  function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  sharedBytes),
              "kernel '%s' cannot use %d bytes of shared memory", name,
              sharedBytes);
  cudaCheck(d.cuLaunchKernel(function, unsigned(gridX), unsigned(gridY),
                             unsigned(gridZ), unsigned(blockX),
                             unsigned(blockY), unsigned(blockZ),
                             unsigned(sharedBytes), s, params, extra),
            "cannot launch kernel '%s' (%ldx%ldx%ld blocks of %ldx%ldx%ld "
            "threads, %d bytes of shared memory)",
            name, long(gridX), long(gridY), long(gridZ), long(blockX),
            long(blockY), long(blockZ), sharedBytes);
  lastLaunched = name;
}

/// Waits for `stream`; a failure names the last kernel this thread launched.
void synchronize(CUstream stream) {
  CUresult result = cudaDriver().cuStreamSynchronize(stream);
  if (result == CUDA_SUCCESS)
    return;
  if (lastLaunched)
    cudaCheck(result, "GPU work failed (the last kernel launched was '%s')",
              lastLaunched);
  cudaCheck(result, "GPU work failed");
}

//===----------------------------------------------------------------------===//
// pcc_cuda_launch
//===----------------------------------------------------------------------===//

struct LaunchArgs {
  void (*body)(void *, int64_t);
  void *args;
  /// This process's devices, the first of them device `first` of the pmap.
  CudaDevice *const *devices;
  int64_t first;
};

/// Runs the body on the calling thread's device and waits for the work it
/// queued.
void runAndWait(void *context, int64_t device) {
  auto *launch = static_cast<LaunchArgs *>(context);
  launch->body(launch->args, device);
  cudaSyncDevice(*boundDevice);
}

void runBound(void *context, int64_t index) {
  auto *launch = static_cast<LaunchArgs *>(context);
  CudaDevice *device = launch->devices[index];
  device->index = launch->first + index;
  boundDevice = device;
  cudaCheck(cudaDriver().cuCtxSetCurrent(device->context),
            "cannot make the GPU current");
  if (trace::on())
    trace::runTraced(runAndWait, launch, device->index);
  else
    runAndWait(launch, device->index);
  boundDevice = nullptr;
  hostContext = nullptr;
  lastLaunched = nullptr;
}

void setMessage(char *message, size_t size, const std::string &text) {
  if (message && size > 0)
    std::snprintf(message, size, "%s", text.c_str());
}

} // namespace

//===----------------------------------------------------------------------===//
// Internal interface (CudaPlatform.h)
//===----------------------------------------------------------------------===//

namespace pcc::runtime {

bool checkPlacement(int64_t numDevices, int64_t gpus, bool oversubscribe,
                    std::string &message, int64_t processes) {
  if (numDevices < 0) {
    message = "invalid number of devices: " + std::to_string(numDevices);
    return false;
  }
  if (gpus <= 0) {
    message = "no GPU is present; use --backend=cpu";
    return false;
  }
  if (numDevices <= gpus || oversubscribe)
    return true;
  message = "the program runs on " +
            (processes == 1
                 ? std::to_string(numDevices) + " devices"
                 : std::to_string(numDevices * processes) + " devices, " +
                       std::to_string(numDevices) + " in each of " +
                       std::to_string(processes) + " processes,") +
            " but " + std::to_string(gpus) +
            (gpus == 1 ? " GPU is" : " GPUs are") +
            " present; pass --oversubscribe to place several devices on one "
            "GPU, or use --backend=cpu";
  return false;
}

const Driver &cudaDriver() { return *platform().driver.load(); }

CudaDevice *boundCudaDevice() { return boundDevice; }

int64_t cudaGpuCount() { return platform().gpuCount; }

int cudaGpuOf(int64_t device, int64_t devices) {
  return platform()
      .devices[size_t(device % (devices / processLayout().count))]
      ->gpu;
}

CUcontext cudaContextOf(int64_t device, int64_t devices) {
  return platform()
      .devices[size_t(device % (devices / processLayout().count))]
      ->context;
}

void cudaFatal(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfatal("", format, args);
}

void cudaCheck(CUresult result, const char *format, ...) {
  if (result == CUDA_SUCCESS)
    return;
  va_list args;
  va_start(args, format);
  vfatal(": " + describe(cudaDriver(), result), format, args);
}

void *cudaAllocManaged(int64_t bytes) {
  if (bytes < 0)
    cudaFatal("cannot allocate %lld bytes of GPU memory", (long long)bytes);
  CUdeviceptr pointer = 0;
  // cuMemAllocManaged rejects zero bytes; a zero-size buffer still needs a
  // valid pointer.
  cudaCheck(cudaDriver().cuMemAllocManaged(
                &pointer, size_t(bytes > 0 ? bytes : 1), CU_MEM_ATTACH_GLOBAL),
            "cannot allocate %lld bytes of GPU memory", (long long)bytes);
  return reinterpret_cast<void *>(uintptr_t(pointer));
}

void cudaSyncDevice(CudaDevice &device) { synchronize(device.stream); }

void launchCollectiveKernel(const char *name, unsigned blocks, unsigned threads,
                            void **params) {
  // Registered like a program's module; opt level 4 is the JIT's default.
  static void *kernels = mgpuModuleLoadJIT(
      const_cast<char *>(collectiveKernelsPtx()), /*opt_level=*/4);
  launch(static_cast<CUfunction>(mgpuModuleGetFunction(kernels, name)), blocks,
         1, 1, threads, 1, 1, 0, boundDevice->stream, params, nullptr);
}

} // namespace pcc::runtime

//===----------------------------------------------------------------------===//
// The C ABI
//===----------------------------------------------------------------------===//

extern "C" int32_t pcc_cuda_init(int64_t num_devices, int32_t oversubscribe,
                                 char *message, size_t size) {
  if (boundDevice) {
    setMessage(message, size, "pcc_cuda_init called from a device thread");
    return 1;
  }
  Platform &p = platform();
  std::lock_guard<std::mutex> lock(p.mutex);
  std::string text;
  // Under mpirun, this process runs its block of the devices.
  int64_t processes = processLayout().count;
  num_devices = (num_devices + processes - 1) / processes;
  if (!initLocked(p, num_devices, oversubscribe != 0, text)) {
    setMessage(message, size, text);
    return 1;
  }
  char name[256] = "";
  if (p.driver.load()->cuDeviceGetName(name, sizeof(name),
                                       p.gpus[size_t(p.firstGpu)].device))
    name[0] = 0;
  int64_t used =
      std::max<int64_t>(1, std::min<int64_t>(num_devices, p.gpuCount));
  text = std::to_string(num_devices) + " device" +
         (num_devices == 1 ? "" : "s") + " on " + std::to_string(used) +
         " of " + std::to_string(p.gpuCount) + " GPU" +
         (p.gpuCount == 1 ? "" : "s") + (name[0] ? " (" : "") + name +
         (name[0] ? ")" : "") +
         (collectiveKernelsPtx()
              ? ""
              : "; built without nvcc: collectives between devices sharing a "
                "GPU reduce on the host");
  setMessage(message, size, text);
  return 0;
}

extern "C" void pcc_cuda_launch(int64_t num_devices,
                                void (*body)(void *args, int64_t device),
                                void *args, int64_t /*work*/) {
  // Under mpirun, this process runs its block [first, first + count) of
  // the devices (Processes.h).
  int64_t first = 0, count = num_devices;
  if (multiProcess() && num_devices >= 0) {
    localDevices(num_devices, first, count);
    numberDevicesFrom(first);
  }
  std::vector<CudaDevice *> devices;
  CUstream hostStream = nullptr;
  if (count > 0 && !boundDevice) {
    Platform &p = platform();
    std::lock_guard<std::mutex> lock(p.mutex);
    ensureInitialized(p, count);
    for (int64_t d = 0; d < count; ++d)
      devices.push_back(p.devices[size_t(d)].get());
    hostStream = p.gpus[size_t(hostGpuOf(p))].hostStream;
  }
  // The devices' streams are not ordered after the caller's: what the caller
  // queued (a copy into a buffer the devices read) must be done first.
  if (hostStream)
    synchronize(hostStream);
  LaunchArgs launch{body, args, devices.data(), first};
  // A thread per device: each binds its device's context (no fibers). An
  // invalid or nested call has been reported; the caller cannot recover.
  // As pcc_launch, end without the exit handlers, which under mpirun would
  // wait for the other processes.
  if (!trace::initialize() ||
      runDevices(count, runBound, &launch, /*threadPerDevice=*/true,
                 /*work=*/-1)) {
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

extern "C" void *pcc_cuda_alloc(int64_t bytes) {
  enter();
  return cudaAllocManaged(bytes);
}

extern "C" void pcc_cuda_free(void *ptr) {
  if (!ptr)
    return;
  enter();
  cudaCheck(cudaDriver().cuMemFree(CUdeviceptr(uintptr_t(ptr))),
            "cannot free GPU memory at %p", ptr);
}

void *pcc::runtime::cudaGenericAlloc(uint64_t alignment, uint64_t size) {
  // Managed allocations are aligned to at least 256 bytes.
  if (alignment == 0 || (alignment & (alignment - 1)) || alignment > 256)
    cudaFatal("a buffer alignment of %llu bytes is not supported on GPUs "
              "(at most 256)",
              (unsigned long long)alignment);
  if (size > uint64_t(INT64_MAX))
    cudaFatal("cannot allocate %llu bytes of GPU memory",
              (unsigned long long)size);
  return pcc_cuda_alloc(int64_t(size));
}

//===----------------------------------------------------------------------===//
// MLIR's GPU runtime ABI
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return new Module{data, false, 0, {}};
}

extern "C" void *mgpuModuleLoadJIT(void *data, int opt_level) {
  return new Module{data, true, std::min(4, std::max(0, opt_level)), {}};
}

extern "C" void mgpuModuleUnload(void *handle) {
  auto *module = static_cast<Module *>(handle);
  if (!module)
    return;
  std::vector<CUcontext> contexts;
  if (!module->loaded.empty()) {
    Platform &p = platform();
    std::lock_guard<std::mutex> lock(p.mutex);
    for (const Gpu &gpu : p.gpus)
      contexts.push_back(gpu.context);
  }
  ModuleRegistry &r = modules();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t g = 0; g < module->loaded.size(); ++g) {
    LoadedModule &loaded = module->loaded[g];
    for (auto &[name, function] : loaded.functions) {
      r.names.erase(function);
      if (lastFunction == function)
        lastFunction = nullptr;
    }
    if (!loaded.module)
      continue;
    // Modules are unloaded by global destructors: at exit, the driver may
    // already be shut down, and then there is nothing left to free.
    const Driver &d = cudaDriver();
    CUcontext previous = nullptr;
    CUresult result = d.cuCtxPushCurrent(contexts[g]);
    if (result == CUDA_ERROR_DEINITIALIZED)
      break;
    cudaCheck(result, "cannot make GPU %d current", int(g));
    result = d.cuModuleUnload(loaded.module);
    if (result != CUDA_ERROR_DEINITIALIZED)
      cudaCheck(result, "cannot unload a GPU module from GPU %d", int(g));
    result = d.cuCtxPopCurrent(&previous);
    if (result != CUDA_ERROR_DEINITIALIZED)
      cudaCheck(result, "cannot restore the current context");
  }
  lastLaunched = nullptr;
  delete module;
}

extern "C" void *mgpuModuleGetFunction(void *handle, const char *name) {
  Target target = enter();
  auto *module = static_cast<Module *>(handle);
  ModuleRegistry &r = modules();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (module->loaded.empty())
    module->loaded.resize(size_t(cudaGpuCount()));
  LoadedModule &loaded = module->loaded[size_t(target.gpu)];
  if (!loaded.module)
    loadModule(*module, loaded, target.gpu);
  auto it = loaded.functions.find(name);
  if (it == loaded.functions.end()) {
    CUfunction function = nullptr;
    cudaCheck(cudaDriver().cuModuleGetFunction(&function, loaded.module, name),
              "kernel '%s' is not in its GPU module", name);
    it = loaded.functions.emplace(name, function).first;
    r.names[function] = it->first.c_str();
  }
  lastFunction = it->second;
  lastFunctionName = it->first.c_str();
  return it->second;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t grid_x,
                                 intptr_t grid_y, intptr_t grid_z,
                                 intptr_t block_x, intptr_t block_y,
                                 intptr_t block_z, int32_t shared_bytes,
                                 void *stream, void **params, void **extra,
                                 size_t /*params_count*/) {
  launch(static_cast<CUfunction>(function), grid_x, grid_y, grid_z, block_x,
         block_y, block_z, shared_bytes, stream, params, extra);
}

extern "C" void mgpuLaunchClusterKernel(void *function, intptr_t cluster_x,
                                        intptr_t cluster_y, intptr_t cluster_z,
                                        intptr_t grid_x, intptr_t grid_y,
                                        intptr_t grid_z, intptr_t block_x,
                                        intptr_t block_y, intptr_t block_z,
                                        int32_t shared_bytes, void *stream,
                                        void **params, void **extra) {
  auto *f = static_cast<CUfunction>(function);
  if (cluster_x != 1 || cluster_y != 1 || cluster_z != 1)
    cudaFatal("kernel '%s' asks for thread block clusters of %ldx%ldx%ld "
              "blocks, which pcc's cuda runtime does not support",
              kernelName(f), long(cluster_x), long(cluster_y), long(cluster_z));
  launch(f, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
         stream, params, extra);
}

extern "C" void *mgpuStreamCreate(void) { return enter().stream; }

extern "C" void mgpuStreamDestroy(void * /*stream*/) {}

extern "C" void mgpuStreamSynchronize(void *stream) {
  synchronize(streamOr(stream));
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  cudaCheck(cudaDriver().cuStreamWaitEvent(streamOr(stream),
                                           static_cast<CUevent>(event), 0),
            "cannot make a stream wait for an event");
}

extern "C" void *mgpuEventCreate(void) {
  enter();
  CUevent event = nullptr;
  cudaCheck(cudaDriver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
            "cannot create an event");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  enter();
  cudaCheck(cudaDriver().cuEventDestroy(static_cast<CUevent>(event)),
            "cannot destroy an event");
}

extern "C" void mgpuEventSynchronize(void *event) {
  enter();
  CUresult result =
      cudaDriver().cuEventSynchronize(static_cast<CUevent>(event));
  if (result != CUDA_SUCCESS && lastLaunched)
    cudaCheck(result, "GPU work failed (the last kernel launched was '%s')",
              lastLaunched);
  cudaCheck(result, "GPU work failed");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  cudaCheck(
      cudaDriver().cuEventRecord(static_cast<CUevent>(event), streamOr(stream)),
      "cannot record an event");
}

extern "C" void *mgpuMemAlloc(uint64_t size, void * /*stream*/,
                              int8_t /*is_host_shared*/) {
  return cudaGenericAlloc(1, size);
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  // Work queued on the stream may still use the buffer.
  synchronize(streamOr(stream));
  pcc_cuda_free(ptr);
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t size, void *stream) {
  if (size == 0)
    return;
  cudaCheck(cudaDriver().cuMemcpyAsync(CUdeviceptr(uintptr_t(dst)),
                                       CUdeviceptr(uintptr_t(src)), size,
                                       streamOr(stream)),
            "cannot copy %zu bytes from %p to %p", size, src, dst);
}

extern "C" void mgpuMemset16(void *dst, uint16_t value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  cudaCheck(cudaDriver().cuMemsetD16Async(CUdeviceptr(uintptr_t(dst)), value,
                                          count, streamOr(stream)),
            "cannot set %zu 16-bit elements at %p", count, dst);
}

extern "C" void mgpuMemset32(void *dst, uint32_t value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  cudaCheck(cudaDriver().cuMemsetD32Async(CUdeviceptr(uintptr_t(dst)), value,
                                          count, streamOr(stream)),
            "cannot set %zu 32-bit elements at %p", count, dst);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  if (boundDevice)
    return;
  int64_t gpus;
  {
    Platform &p = platform();
    std::lock_guard<std::mutex> lock(p.mutex);
    ensureInitialized(p, 0);
    gpus = p.gpuCount;
  }
  if (device < 0 || device >= gpus)
    cudaFatal("GPU %d does not exist (%lld present)", int(device),
              (long long)gpus);
  hostGpu = device;
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t /*rank*/,
                                          void * /*descriptor*/,
                                          int64_t /*element_size*/) {}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                            void * /*descriptor*/,
                                            int64_t /*element_size*/) {}
