//===- MockCuda.cpp - A CUDA driver on the CPU, for testing --------------===//
//
// A stand-in for libcuda.so.1 with the functions the runtime's cuda platform
// loads, so that cuda-mock-tests can run the platform end to end on machines
// without a GPU. It is deliberately strict where the real driver may be
// lenient: every call that needs a context checks that one is current, a
// launch checks that the kernel and the stream belong to the current
// context, streams run their work asynchronously on threads of their own
// (with a small delay, so that a missing synchronization shows up as wrong
// data), managed memory is poisoned when allocated and only known pointers
// may be freed. Kernels are host functions: the runtime's own collective
// kernels (MockKernels.cpp) and the tests' pcc_test_add.
//
//===----------------------------------------------------------------------===//

#include "MockCuda.h"
#include "DeviceShim.h"

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

namespace {

// CUresult values (cuda.h).
constexpr int kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2,
              kInvalidContext = 201, kInvalidPtx = 218, kInvalidHandle = 400,
              kNotFound = 500, kNotReady = 600, kIllegalAddress = 700;

struct Context {
  int gpu;
};

struct Stream {
  Context *context;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<int()>> tasks;
  bool busy = false;
  int error = kSuccess;
};

struct Event {
  std::mutex mutex;
  std::condition_variable changed;
  uint64_t recorded = 0, completed = 0;
};

struct Function;

struct Module {
  Context *context;
  std::set<std::string> entries;
  std::map<std::string, Function *> functions;
};

struct Function {
  Context *context;
  std::string name;
  /// The collective kernel, or null for pcc_test_add.
  decltype(pcc::mock::ReduceKernel::function) reduce;
};

/// Process-wide state; never destroyed (stream threads outlive main).
struct State {
  std::mutex mutex;
  int gpus = 1;
  std::vector<Context> contexts;
  std::set<uintptr_t> allocations;
};

State &state() {
  static State *s = [] {
    auto *s = new State;
    if (const char *text = std::getenv("PCC_MOCK_GPUS"))
      s->gpus = std::max(1, std::atoi(text));
    s->contexts.resize(size_t(s->gpus));
    for (int g = 0; g < s->gpus; ++g)
      s->contexts[size_t(g)].gpu = g;
    return s;
  }();
  return *s;
}

thread_local Context *current = nullptr;
thread_local std::vector<Context *> contextStack;

/// Each task sleeps this long first, so that the host, if it does not
/// synchronize, reads data before the stream wrote it.
constexpr auto kTaskDelay = std::chrono::microseconds(20);

void runStream(Stream *stream) {
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

/// Runs a kernel's grid one thread at a time.
template <typename F> void forEachThread(unsigned gx, unsigned bx, F body) {
  gridDim = {gx, 1, 1};
  blockDim = {bx, 1, 1};
  for (unsigned b = 0; b < gx; ++b)
    for (unsigned t = 0; t < bx; ++t) {
      blockIdx = {b, 0, 0};
      threadIdx = {t, 0, 0};
      body(b * bx + t);
    }
}

const char *errorName(int error) {
  switch (error) {
  case kSuccess:
    return "CUDA_SUCCESS";
  case kInvalidValue:
    return "CUDA_ERROR_INVALID_VALUE";
  case kOutOfMemory:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 4:
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

const char *errorString(int error) {
  switch (error) {
  case kSuccess:
    return "no error";
  case kInvalidValue:
    return "invalid argument";
  case kOutOfMemory:
    return "out of memory";
  case 4:
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

} // namespace

//===----------------------------------------------------------------------===//
// For the mock NCCL
//===----------------------------------------------------------------------===//

int pcc::mock::enqueue(void *handle, std::function<int()> task) {
  if (!handle)
    return kInvalidHandle;
  auto *stream = static_cast<Stream *>(handle);
  std::lock_guard<std::mutex> lock(stream->mutex);
  stream->tasks.push_back(std::move(task));
  stream->changed.notify_all();
  return kSuccess;
}

int pcc::mock::gpuCount() { return state().gpus; }

void pcc::mock::selectGpu(int gpu) { current = &state().contexts[size_t(gpu)]; }

namespace {

/// Work on `stream` needs its context to be current.
int checkStream(void *stream) {
  if (!current)
    return kInvalidContext;
  if (!stream || static_cast<Stream *>(stream)->context != current)
    return kInvalidHandle;
  return kSuccess;
}

template <typename T>
int memsetAsync(unsigned long long dst, T value, size_t count, void *stream) {
  if (int error = checkStream(stream))
    return error;
  return pcc::mock::enqueue(stream, [=] {
    T *out = reinterpret_cast<T *>(uintptr_t(dst));
    for (size_t i = 0; i < count; ++i)
      out[i] = value;
    return kSuccess;
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// The driver API
//===----------------------------------------------------------------------===//

extern "C" {

int cuInit(unsigned flags) { return flags == 0 ? kSuccess : kInvalidValue; }

int cuGetErrorName(int error, const char **name) {
  *name = errorName(error);
  return *name ? kSuccess : kInvalidValue;
}

int cuGetErrorString(int error, const char **text) {
  *text = errorString(error);
  return *text ? kSuccess : kInvalidValue;
}

int cuDeviceGetCount(int *count) {
  *count = state().gpus;
  return kSuccess;
}

int cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= state().gpus)
    return kInvalidValue;
  *device = ordinal;
  return kSuccess;
}

int cuDeviceGetName(char *name, int length, int device) {
  std::snprintf(name, size_t(length), "Mock GPU %d", device);
  return kSuccess;
}

int cuDeviceGetAttribute(int *value, int attribute, int device) {
  if (device < 0 || device >= state().gpus)
    return kInvalidValue;
  // CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is all the runtime asks.
  *value = attribute == 89 ? 1 : 0;
  return kSuccess;
}

int cuDevicePrimaryCtxRetain(void **context, int device) {
  if (device < 0 || device >= state().gpus)
    return kInvalidValue;
  *context = &state().contexts[size_t(device)];
  return kSuccess;
}

int cuCtxSetCurrent(void *context) {
  current = static_cast<Context *>(context);
  return kSuccess;
}

int cuCtxPushCurrent_v2(void *context) {
  if (!context)
    return kInvalidValue;
  contextStack.push_back(current);
  current = static_cast<Context *>(context);
  return kSuccess;
}

int cuCtxPopCurrent_v2(void **context) {
  if (contextStack.empty() || !current)
    return kInvalidContext;
  if (context)
    *context = current;
  current = contextStack.back();
  contextStack.pop_back();
  return kSuccess;
}

int cuStreamCreate(void **stream, unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (flags != 1) // The runtime always asks for CU_STREAM_NON_BLOCKING.
    return kInvalidValue;
  auto *s = new Stream;
  s->context = current;
  std::thread(runStream, s).detach();
  *stream = s;
  return kSuccess;
}

int cuStreamSynchronize(void *handle) {
  if (!handle)
    return kInvalidHandle;
  auto *stream = static_cast<Stream *>(handle);
  std::unique_lock<std::mutex> lock(stream->mutex);
  stream->changed.wait(lock, [&] { return stream->tasks.empty(); });
  return stream->error;
}

int cuStreamQuery(void *handle) {
  if (!handle)
    return kInvalidHandle;
  auto *stream = static_cast<Stream *>(handle);
  std::lock_guard<std::mutex> lock(stream->mutex);
  if (!stream->tasks.empty())
    return kNotReady;
  return stream->error;
}

// An event handle owns a reference to the event; queued work holds others,
// since an event may be destroyed while work still waits for it.
using EventHandle = std::shared_ptr<Event>;

int cuEventCreate(void **event, unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (flags != 2) // CU_EVENT_DISABLE_TIMING
    return kInvalidValue;
  *event = new EventHandle(std::make_shared<Event>());
  return kSuccess;
}

int cuEventDestroy_v2(void *event) {
  if (!event)
    return kInvalidHandle;
  auto *handle = static_cast<EventHandle *>(event);
  // Ordered after the stream work that used the event (which holds its own
  // reference): its last unlock happens before the release here, which
  // ThreadSanitizer sees through the mutex, not the reference count.
  { std::lock_guard<std::mutex> lock((*handle)->mutex); }
  delete handle;
  return kSuccess;
}

int cuEventRecord(void *handle, void *stream) {
  if (!handle || !stream)
    return kInvalidHandle;
  EventHandle event = *static_cast<EventHandle *>(handle);
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    ticket = ++event->recorded;
  }
  return pcc::mock::enqueue(stream, [event, ticket] {
    std::lock_guard<std::mutex> lock(event->mutex);
    event->completed = std::max(event->completed, ticket);
    event->changed.notify_all();
    return kSuccess;
  });
}

int cuEventSynchronize(void *handle) {
  if (!handle)
    return kInvalidHandle;
  EventHandle event = *static_cast<EventHandle *>(handle);
  std::unique_lock<std::mutex> lock(event->mutex);
  uint64_t ticket = event->recorded;
  event->changed.wait(lock, [&] { return event->completed >= ticket; });
  return kSuccess;
}

int cuStreamWaitEvent(void *stream, void *handle, unsigned flags) {
  if (!handle || !stream || flags != 0)
    return kInvalidHandle;
  EventHandle event = *static_cast<EventHandle *>(handle);
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    ticket = event->recorded;
  }
  return pcc::mock::enqueue(stream, [event, ticket] {
    std::unique_lock<std::mutex> lock(event->mutex);
    event->changed.wait(lock, [&] { return event->completed >= ticket; });
    return kSuccess;
  });
}

int cuMemAllocManaged(unsigned long long *pointer, size_t bytes,
                      unsigned flags) {
  if (!current)
    return kInvalidContext;
  if (bytes == 0 || flags != 1) // CU_MEM_ATTACH_GLOBAL
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

int cuMemFree_v2(unsigned long long pointer) {
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

int cuMemcpyAsync(unsigned long long dst, unsigned long long src, size_t bytes,
                  void *stream) {
  if (int error = checkStream(stream))
    return error;
  return pcc::mock::enqueue(stream, [=] {
    std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
                 reinterpret_cast<const void *>(uintptr_t(src)), bytes);
    return kSuccess;
  });
}

int cuMemsetD16Async(unsigned long long dst, unsigned short value, size_t count,
                     void *stream) {
  return memsetAsync(dst, value, count, stream);
}

int cuMemsetD32Async(unsigned long long dst, unsigned value, size_t count,
                     void *stream) {
  return memsetAsync(dst, value, count, stream);
}

int cuModuleLoadDataEx(void **module, const void *image, unsigned numOptions,
                       int *options, void **values) {
  if (!current)
    return kInvalidContext;
  std::string text = static_cast<const char *>(image);
  if (text.find("bogus") != std::string::npos) {
    const char *log = "ptxas application ptx input, line 6; error   : "
                      "Unknown symbol 'bogus'";
    char *buffer = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
        buffer = static_cast<char *>(values[i]);
      if (options[i] == 6) // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
        size = uintptr_t(values[i]);
    }
    if (buffer && size)
      std::snprintf(buffer, size, "%s", log);
    return kInvalidPtx;
  }
  auto *m = new Module;
  m->context = current;
  for (size_t at = text.find(".entry "); at != std::string::npos;
       at = text.find(".entry ", at + 1)) {
    size_t begin = at + 7, end = text.find_first_of("( \n", begin);
    m->entries.insert(text.substr(begin, end - begin));
  }
  *module = m;
  return kSuccess;
}

int cuModuleUnload(void *handle) {
  auto *module = static_cast<Module *>(handle);
  if (!module)
    return kInvalidHandle;
  if (current != module->context)
    return kInvalidContext;
  for (auto &[name, function] : module->functions)
    delete function;
  delete module;
  return kSuccess;
}

int cuModuleGetFunction(void **function, void *handle, const char *name) {
  auto *module = static_cast<Module *>(handle);
  if (!module)
    return kInvalidHandle;
  if (!module->entries.count(name))
    return kNotFound;
  Function *&f = module->functions[name];
  if (!f) {
    f = new Function{module->context, name, nullptr};
    for (const auto *k = pcc::mock::kReduceKernels; k->name; ++k)
      if (f->name == k->name)
        f->reduce = k->function;
  }
  *function = f;
  return kSuccess;
}

int cuFuncSetAttribute(void *function, int /*attribute*/, int /*value*/) {
  return function ? kSuccess : kInvalidHandle;
}

int cuLaunchKernel(void *handle, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned shared,
                   void *stream, void **params, void **extra) {
  auto *f = static_cast<Function *>(handle);
  if (!f)
    return kInvalidHandle;
  if (current != f->context)
    return kInvalidContext;
  if (int error = checkStream(stream))
    return error;
  if (!gx || !gy || !gz || !bx || !by || !bz || uint64_t(bx) * by * bz > 1024 ||
      gy != 1 || gz != 1 || by != 1 || bz != 1 || shared > 48 * 1024 || extra ||
      !params)
    return kInvalidValue;
  // Arguments are copied at launch, as the real driver does.
  if (f->reduce) {
    using Table = const void *const *;
    Table table;
    const char *base;
    long long stride, n, count;
    void *out;
    std::memcpy(&table, params[0], sizeof(table));
    std::memcpy(&base, params[1], sizeof(base));
    std::memcpy(&stride, params[2], sizeof(stride));
    std::memcpy(&n, params[3], sizeof(n));
    std::memcpy(&out, params[4], sizeof(out));
    std::memcpy(&count, params[5], sizeof(count));
    auto kernel = f->reduce;
    return pcc::mock::enqueue(stream, [=] {
      forEachThread(gx, bx, [&](unsigned) {
        kernel(table, base, stride, n, out, count);
      });
      return kSuccess;
    });
  }
  if (f->name == "pcc_test_add") {
    int32_t *data;
    uint32_t n;
    int32_t value;
    std::memcpy(&data, params[0], sizeof(data));
    std::memcpy(&n, params[1], sizeof(n));
    std::memcpy(&value, params[2], sizeof(value));
    return pcc::mock::enqueue(stream, [=] {
      if (!data)
        return kIllegalAddress;
      forEachThread(gx, bx, [&](unsigned i) {
        if (i < n)
          data[i] += value;
      });
      return kSuccess;
    });
  }
  return kInvalidValue;
}

} // extern "C"
