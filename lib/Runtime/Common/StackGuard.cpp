//===- StackGuard.cpp - Recursion that would overflow a device's stack ----===//

#include "StackGuard.h"

#include "Fibers.h"
#include "RuntimeError.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <string>

namespace pcc::runtime {

namespace {
struct StackState {
  /// The lowest address of the stack in use; null until known.
  const char *low = nullptr;
  size_t size = 0;
  /// The device running, or -1 for host code.
  int64_t device = -1;
};

thread_local StackState current;
/// See numberDevicesFrom: set before a launch, read by its devices.
std::atomic<int64_t> firstDevice{0};
/// The thread's own stack, learnt once.
thread_local StackState threadStack;

const StackState &getThreadStack() {
  if (!threadStack.low) {
    pthread_attr_t attr;
    void *low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    threadStack.low = static_cast<const char *>(low);
    threadStack.size = size;
  }
  return threadStack;
}
} // namespace

void enterDeviceStack(int64_t device, const char *low, size_t size) {
  if (low) {
    current.low = low;
    current.size = size;
  } else {
    current = getThreadStack();
  }
  // Every device gets the same stack wherever it runs (the main thread's
  // may be larger), so that how deep it may recurse does not depend on
  // where it runs.
  if (current.size > kDeviceStackSize) {
    current.low += current.size - kDeviceStackSize;
    current.size = kDeviceStackSize;
  }
  current.device = device;
}

bool ensureThreadStack(size_t size) {
  if (getThreadStack().size >= size)
    return true;
  // Tried once per thread: a dispatch must not make system calls.
  thread_local bool tried = false;
  if (tried)
    return false;
  tried = true;
  // The main thread's stack: the kernel grows it on demand, as far as the
  // limit at the time of the fault allows, into the gap of at least
  // 128 MiB that it leaves below at exec. Other threads' stacks are fixed.
  // What glibc reports of it is the limit less what the program's
  // arguments and environment and the frames above main() already use.
  rlim_t wanted = size + (size_t(2) << 20);
  rlimit limit;
  if (getpid() != static_cast<pid_t>(syscall(SYS_gettid)) ||
      getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur >= wanted ||
      (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < wanted))
    return false;
  limit.rlim_cur = wanted;
  if (setrlimit(RLIMIT_STACK, &limit) != 0)
    return false;
  threadStack = StackState();
  if (current.device < 0)
    current = getThreadStack();
  return getThreadStack().size >= size;
}

void leaveDeviceStack() { current = getThreadStack(); }

void numberDevicesFrom(int64_t first) {
  // Launches store it only when it changes: every device of every launch
  // reads it.
  if (firstDevice.load(std::memory_order_relaxed) != first)
    firstDevice.store(first, std::memory_order_relaxed);
}

int64_t runningDevice() {
  return current.device < 0
             ? -1
             : current.device + firstDevice.load(std::memory_order_relaxed);
}

void checkStack(const char *function) {
  if (!current.low)
    current = getThreadStack();
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  auto low = reinterpret_cast<uintptr_t>(current.low);
  if (!low || here >= low + kStackReserve)
    return;
  int64_t device = runningDevice();
  std::string who =
      device < 0 ? std::string("the host") : "device " + std::to_string(device);
  failRun(std::string(function) + ": recursion deeper than " + who +
          "'s stack allows (" + std::to_string(current.size >> 20) +
          " MiB); recurse less deeply, or iterate with scf.for or scf.while");
}

} // namespace pcc::runtime
