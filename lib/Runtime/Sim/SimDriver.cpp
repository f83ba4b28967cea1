//===- SimDriver.cpp - The CUDA driver of the simulated GPU -------------===//
//
// The driver functions of CudaDriver.h on the CPU (see Sim.h for how strict
// they are). Contexts, streams, events, modules and functions are the
// opaque types of CudaDriver.h, defined here. Modules are either images of
// the cuda-sim pipeline (pcc_sim_image: kernels compiled for the host) or
// the runtime's own collective kernels as PTX, whose entries run the same
// source compiled for the host; any other PTX is refused as a real driver
// refuses PTX it cannot compile.
//
//===----------------------------------------------------------------------===//

#include "Sim.h"

#include "CudaDriver.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace pcc::runtime::cuda;

// CUresult values (cuda.h).
namespace {
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2,
                   kDeinitialized = 4, kInvalidContext = 201, kInvalidPtx = 218,
                   kInvalidHandle = 400, kNotFound = 500, kNotReady = 600,
                   kIllegalAddress = 700;
} // namespace

// The driver's opaque types.
struct pcc::runtime::cuda::CUctx_st {
  int gpu;
};

struct pcc::runtime::cuda::CUstream_st {
  CUcontext context;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<int()>> tasks;
  bool busy = false;
  CUresult error = kSuccess;
};

namespace {
struct Event {
  std::mutex mutex;
  std::condition_variable changed;
  uint64_t recorded = 0, completed = 0;
};
} // namespace

// An event handle owns a reference to the event; queued work holds others,
// since an event may be destroyed while work still waits for it.
struct pcc::runtime::cuda::CUevent_st {
  std::shared_ptr<Event> event;
};

struct pcc::runtime::cuda::CUfunc_st {
  CUcontext context;
  std::string name;
  /// A kernel of the cuda-sim pipeline, or else a collective kernel.
  const pcc_sim_kernel *kernel;
  const pcc::sim::ReduceKernel *reduce;
};

struct pcc::runtime::cuda::CUmod_st {
  CUcontext context;
  /// The kernels of an image of the cuda-sim pipeline, or null.
  const pcc_sim_image *image;
  /// The collective kernels named by a PTX module.
  std::set<std::string> entries;
  std::map<std::string, CUfunction> functions;
};

namespace {

/// Process-wide state; never destroyed (stream threads outlive main).
struct State {
  std::mutex mutex;
  int gpus = 1;
  std::vector<CUctx_st> contexts;
  std::set<uintptr_t> allocations;
};

State &state() {
  static State *s = new State;
  return *s;
}

thread_local CUcontext current = nullptr;
thread_local std::vector<CUcontext> contextStack;

/// Each task sleeps this long first, so that the host, if it does not
/// synchronize, reads data before the stream wrote it.
constexpr auto kTaskDelay = std::chrono::microseconds(20);

void runStream(CUstream stream) {
  std::unique_lock<std::mutex> lock(stream->mutex);
  for (;;) {
    stream->changed.wait(lock, [&] { return !stream->tasks.empty(); });
    std::function<int()> task = std::move(stream->tasks.front());
    stream->busy = true;
    bool failed = stream->error != kSuccess;
    lock.unlock();
    // After an error, later work does not run (the real context would be
    // unusable).
    int error = kSuccess;
    if (!failed) {
      std::this_thread::sleep_for(kTaskDelay);
      error = task();
    }
    lock.lock();
    if (error != kSuccess && stream->error == kSuccess)
      stream->error = error;
    stream->tasks.pop_front();
    stream->busy = false;
    stream->changed.notify_all();
  }
}

const char *errorName(CUresult error) {
  switch (error) {
  case kSuccess:
    return "CUDA_SUCCESS";
  case kInvalidValue:
    return "CUDA_ERROR_INVALID_VALUE";
  case kOutOfMemory:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case kDeinitialized:
    return "CUDA_ERROR_DEINITIALIZED";
  case kInvalidContext:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case kInvalidPtx:
    return "CUDA_ERROR_INVALID_PTX";
  case kInvalidHandle:
    return "CUDA_ERROR_INVALID_HANDLE";
  case kNotFound:
    return "CUDA_ERROR_NOT_FOUND";
  case kNotReady:
    return "CUDA_ERROR_NOT_READY";
  case kIllegalAddress:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  }
  return nullptr;
}

const char *errorString(CUresult error) {
  switch (error) {
  case kSuccess:
    return "no error";
  case kInvalidValue:
    return "invalid argument";
  case kOutOfMemory:
    return "out of memory";
  case kDeinitialized:
    return "driver shutting down";
  case kInvalidContext:
    return "invalid device context";
  case kInvalidPtx:
    return "a PTX JIT compilation failed";
  case kInvalidHandle:
    return "invalid resource handle";
  case kNotFound:
    return "named symbol not found";
  case kNotReady:
    return "device not ready";
  case kIllegalAddress:
    return "an illegal memory access was encountered";
  }
  return nullptr;
}

/// Work on `stream` needs its context to be current.
CUresult checkStream(CUstream stream) {
  if (!current)
    return kInvalidContext;
  if (!stream || stream->context != current)
    return kInvalidHandle;
  return kSuccess;
}

template <typename T>
CUresult memsetAsync(CUdeviceptr dst, T value, size_t count, CUstream stream) {
  if (CUresult error = checkStream(stream))
    return error;
  return pcc::sim::enqueue(stream, [=] {
    T *out = reinterpret_cast<T *>(uintptr_t(dst));
    for (size_t i = 0; i < count; ++i)
      out[i] = value;
    return kSuccess;
  });
}

//===----------------------------------------------------------------------===//
// The driver API
//===----------------------------------------------------------------------===//

CUresult cuInit(unsigned flags) {
  return flags == 0 ? kSuccess : kInvalidValue;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = errorName(error);
  return *name ? kSuccess : kInvalidValue;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = errorString(error);
  return *text ? kSuccess : kInvalidValue;
}

CUresult cuDeviceGetCount(int *count) {
  *count = state().gpus;
  return kSuccess;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= state().gpus)
    return kInvalidValue;
  *device = ordinal;
  return kSuccess;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  std::snprintf(name, size_t(length), "Simulated GPU %d", device);
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  if (device < 0 || device >= state().gpus)
    return kInvalidValue;
  // Concurrent managed access is all the runtime asks.
  *value = attribute == CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS ? 1 : 0;
  return kSuccess;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  if (device < 0 || device >= state().gpus)
    return kInvalidValue;
  *context = &state().contexts[size_t(device)];
  return kSuccess;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return kSuccess;
}

CUresult cuCtxPushCurrent(CUcontext context) {
  if (!context)
    return kInvalidValue;
  contextStack.push_back(current);
  current = context;
  return kSuccess;
}

CUresult cuCtxPopCurrent(CUcontext *context) {
  if (contextStack.empty() || !current)
    return kInvalidContext;
  if (context)
    *context = current;
  current = contextStack.back();
  contextStack.pop_back();
  return kSuccess;
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (flags != CU_STREAM_NON_BLOCKING) // What the runtime always asks for.
    return kInvalidValue;
  auto *s = new CUstream_st;
  s->context = current;
  std::thread(runStream, s).detach();
  *stream = s;
  return kSuccess;
}

CUresult cuStreamSynchronize(CUstream stream) {
  if (!stream)
    return kInvalidHandle;
  std::unique_lock<std::mutex> lock(stream->mutex);
  stream->changed.wait(lock, [&] { return stream->tasks.empty(); });
  return stream->error;
}

CUresult cuStreamQuery(CUstream stream) {
  if (!stream)
    return kInvalidHandle;
  std::lock_guard<std::mutex> lock(stream->mutex);
  if (!stream->tasks.empty())
    return kNotReady;
  return stream->error;
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (flags != CU_EVENT_DISABLE_TIMING)
    return kInvalidValue;
  *event = new CUevent_st{std::make_shared<Event>()};
  return kSuccess;
}

CUresult cuEventDestroy(CUevent handle) {
  if (!handle)
    return kInvalidHandle;
  // Ordered after the stream work that used the event (which holds its own
  // reference): its last unlock happens before the release here, which
  // ThreadSanitizer sees through the mutex, not the reference count.
  { std::lock_guard<std::mutex> lock(handle->event->mutex); }
  delete handle;
  return kSuccess;
}

CUresult cuEventRecord(CUevent handle, CUstream stream) {
  if (!handle || !stream)
    return kInvalidHandle;
  std::shared_ptr<Event> event = handle->event;
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    ticket = ++event->recorded;
  }
  return pcc::sim::enqueue(stream, [event, ticket] {
    std::lock_guard<std::mutex> lock(event->mutex);
    event->completed = std::max(event->completed, ticket);
    event->changed.notify_all();
    return kSuccess;
  });
}

CUresult cuEventSynchronize(CUevent handle) {
  if (!handle)
    return kInvalidHandle;
  std::shared_ptr<Event> event = handle->event;
  std::unique_lock<std::mutex> lock(event->mutex);
  uint64_t ticket = event->recorded;
  event->changed.wait(lock, [&] { return event->completed >= ticket; });
  return kSuccess;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent handle, unsigned flags) {
  if (!handle || !stream || flags != 0)
    return kInvalidHandle;
  std::shared_ptr<Event> event = handle->event;
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    ticket = event->recorded;
  }
  return pcc::sim::enqueue(stream, [event, ticket] {
    std::unique_lock<std::mutex> lock(event->mutex);
    event->changed.wait(lock, [&] { return event->completed >= ticket; });
    return kSuccess;
  });
}

CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (bytes == 0 || flags != CU_MEM_ATTACH_GLOBAL)
    return kInvalidValue;
  if (bytes > (size_t(1) << 40))
    return kOutOfMemory;
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory)
    return kOutOfMemory;
  std::memset(memory, 0xcd, rounded);
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.allocations.insert(uintptr_t(memory));
  *pointer = uintptr_t(memory);
  return kSuccess;
}

CUresult cuMemFree(CUdeviceptr pointer) {
  if (!current)
    return kInvalidContext;
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.allocations.erase(uintptr_t(pointer)))
      return kInvalidValue;
  }
  std::free(reinterpret_cast<void *>(uintptr_t(pointer)));
  return kSuccess;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  if (CUresult error = checkStream(stream))
    return error;
  return pcc::sim::enqueue(stream, [=] {
    std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
                 reinterpret_cast<const void *>(uintptr_t(src)), bytes);
    return kSuccess;
  });
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                         CUstream stream) {
  return memsetAsync(dst, value, count, stream);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  return memsetAsync(dst, value, count, stream);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream stream) {
  return memsetAsync(dst, value, count, stream);
}

/// Writes `log` into the JIT error log buffer among `options`, if any.
void writeLog(unsigned numOptions, CUjit_option *options, void **values,
              const std::string &log) {
  char *buffer = nullptr;
  size_t size = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      buffer = static_cast<char *>(values[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      size = uintptr_t(values[i]);
  }
  if (buffer && size)
    std::snprintf(buffer, size, "%s", log.c_str());
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, CUjit_option *options,
                            void **values) {
  if (!current)
    return kInvalidContext;
  if (!image)
    return kInvalidValue;
  auto m = std::make_unique<CUmod_st>();
  m->context = current;
  uint64_t magic;
  std::memcpy(&magic, image, sizeof(magic));
  if (magic == PCC_SIM_IMAGE_MAGIC) {
    m->image = static_cast<const pcc_sim_image *>(image);
    *module = m.release();
    return kSuccess;
  }
  // PTX: only the runtime's collective kernels, which run as their source
  // compiled for the host.
  m->image = nullptr;
  std::string text = static_cast<const char *>(image);
  for (size_t at = text.find(".entry "); at != std::string::npos;
       at = text.find(".entry ", at + 1)) {
    size_t begin = at + 7, end = text.find_first_of("( \n", begin);
    std::string name = text.substr(begin, end - begin);
    bool known = false;
    for (const auto *k = pcc::sim::kReduceKernels; k->name; ++k)
      known |= name == k->name;
    if (!known) {
      writeLog(numOptions, options, values,
               "the simulated GPU cannot compile PTX: it runs the kernels of "
               "--backend=cuda-sim and pcc's own, not '" +
                   name + "'");
      return kInvalidPtx;
    }
    m->entries.insert(name);
  }
  *module = m.release();
  return kSuccess;
}

CUresult cuModuleUnload(CUmodule module) {
  if (!module)
    return kInvalidHandle;
  if (current != module->context)
    return kInvalidContext;
  for (auto &[name, function] : module->functions)
    delete function;
  delete module;
  return kSuccess;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  if (!module)
    return kInvalidHandle;
  const pcc_sim_kernel *kernel = nullptr;
  const pcc::sim::ReduceKernel *reduce = nullptr;
  if (const pcc_sim_image *image = module->image) {
    for (int64_t k = 0; k < image->num_kernels; ++k)
      if (!std::strcmp(image->kernels[k].name, name))
        kernel = &image->kernels[k];
  } else if (module->entries.count(name)) {
    for (const auto *k = pcc::sim::kReduceKernels; k->name; ++k)
      if (!std::strcmp(k->name, name))
        reduce = k;
  }
  if (!kernel && !reduce)
    return kNotFound;
  CUfunction &f = module->functions[name];
  if (!f)
    f = new CUfunc_st{module->context, name, kernel, reduce};
  *function = f;
  return kSuccess;
}

CUresult cuFuncSetAttribute(CUfunction function, int /*attribute*/,
                            int /*value*/) {
  return function ? kSuccess : kInvalidHandle;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream stream, void **params, void **extra) {
  if (!f)
    return kInvalidHandle;
  if (current != f->context)
    return kInvalidContext;
  if (CUresult error = checkStream(stream))
    return error;
  // The limits of compute capability 9.0.
  if (!gx || !gy || !gz || !bx || !by || !bz || uint64_t(bx) * by * bz > 1024 ||
      bz > 64 || gy > 65535 || gz > 65535 || shared > 227 * 1024 || extra ||
      !params)
    return kInvalidValue;
  if (f->reduce) {
    if (gy != 1 || gz != 1 || by != 1 || bz != 1)
      return kInvalidValue;
    // Arguments are copied at launch, as the real driver does.
    std::vector<uint64_t> copied(6);
    for (size_t i = 0; i < copied.size(); ++i)
      std::memcpy(&copied[i], params[i], sizeof(uint64_t));
    const pcc::sim::ReduceKernel *kernel = f->reduce;
    return pcc::sim::enqueue(stream, [=]() mutable {
      void *values[6];
      for (size_t i = 0; i < copied.size(); ++i)
        values[i] = &copied[i];
      pcc::sim::runReduceKernel(*kernel, gx, bx, values);
      return kSuccess;
    });
  }
  const pcc_sim_kernel *kernel = f->kernel;
  auto storage = std::make_shared<std::vector<std::vector<char>>>();
  for (int64_t i = 0; i < kernel->num_params; ++i) {
    const char *value = static_cast<const char *>(params[i]);
    storage->emplace_back(value, value + kernel->param_sizes[i]);
  }
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return pcc::sim::enqueue(stream, [=] {
    std::vector<void *> values;
    for (std::vector<char> &value : *storage)
      values.push_back(value.data());
    pcc::sim::runKernel(*kernel, grid, block, values.data());
    return kSuccess;
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// For the runtime and the simulated NCCL
//===----------------------------------------------------------------------===//

bool pcc::sim::configure(int64_t gpus, std::string &message) {
  State &s = state();
  s.gpus = int(std::max<int64_t>(1, std::min<int64_t>(gpus, 4096)));
  if (const char *text = std::getenv("PCC_SIM_GPUS"); text && *text) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (!(*text >= '0' && *text <= '9') || *end || value < 1 || value > 4096) {
      message = std::string("PCC_SIM_GPUS must be a number of simulated "
                            "GPUs from 1 to 4096, got '") +
                text + "'";
      return false;
    }
    s.gpus = int(value);
  }
  s.contexts.resize(size_t(s.gpus));
  for (int g = 0; g < s.gpus; ++g)
    s.contexts[size_t(g)].gpu = g;
  return true;
}

int pcc::sim::enqueue(void *handle, std::function<int()> task) {
  if (!handle)
    return kInvalidHandle;
  auto *stream = static_cast<CUstream>(handle);
  std::lock_guard<std::mutex> lock(stream->mutex);
  stream->tasks.push_back(std::move(task));
  stream->changed.notify_all();
  return kSuccess;
}

int pcc::sim::gpuCount() { return state().gpus; }

void pcc::sim::selectGpu(int gpu) { current = &state().contexts[size_t(gpu)]; }

int pcc::sim::currentGpu() { return current ? current->gpu : -1; }

const Driver &pcc::runtime::cuda::simulatedDriver() {
  static const Driver driver = {
      cuInit,
      cuGetErrorName,
      cuGetErrorString,
      cuDeviceGetCount,
      cuDeviceGet,
      cuDeviceGetName,
      cuDeviceGetAttribute,
      cuDevicePrimaryCtxRetain,
      cuCtxSetCurrent,
      cuCtxPushCurrent,
      cuCtxPopCurrent,
      cuStreamCreate,
      cuStreamSynchronize,
      cuStreamQuery,
      cuStreamWaitEvent,
      cuEventCreate,
      cuEventDestroy,
      cuEventRecord,
      cuEventSynchronize,
      cuMemAllocManaged,
      cuMemFree,
      cuMemcpyAsync,
      cuMemsetD8Async,
      cuMemsetD16Async,
      cuMemsetD32Async,
      cuModuleLoadDataEx,
      cuModuleUnload,
      cuModuleGetFunction,
      cuFuncSetAttribute,
      cuLaunchKernel,
  };
  return driver;
}
