//===- Fibers.h - Several devices on one host thread -----------*- C++ -*-===//
//
// When a pmap has more devices than the machine has cores, one thread per
// device makes every collective wait for the OS to switch threads: a futex
// wake-up and a context switch, microseconds each. Instead the device pool
// runs a block of devices on each thread as fibers, which switch only where
// a device waits (in a collective), in a few nanoseconds and without the
// kernel. A fiber has its own stack; everything else of the thread is shared,
// which is why only the cpu platform uses them (the cuda platform binds each
// device's context to its thread).
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_FIBERS_H
#define PCC_LIB_RUNTIME_FIBERS_H

#include <cstddef>
#include <cstdint>

namespace pcc::runtime {

/// The least stack a device gets, on a thread or as a fiber: device bodies
/// are generated code that may keep large buffers on the stack.
constexpr size_t kDeviceStackSize = size_t(16) << 20;

/// Whether this build can run devices as fibers (x86-64 only for now; other
/// targets run a thread per device).
bool fibersSupported();

/// Maps the stacks of devices [0, numDevices) as fibers, where not done by
/// an earlier call. Returns false after printing an error. Not thread-safe:
/// the device pool calls it before it starts the devices.
bool reserveFiberStacks(int64_t numDevices);

/// Runs body(args, d) for every d in [first, first + count) on the calling
/// thread, each device as a fiber on its reserved stack, and returns when
/// all have finished.
void runDevicesAsFibers(int64_t first, int64_t count,
                        void (*body)(void *args, int64_t device), void *args);

/// Called by a device that waits: when other devices of its thread can run,
/// switches to the next of them and returns true once this device runs
/// again; otherwise (not a fiber, or the last one left) returns false at
/// once.
bool yieldToSiblingDevice();

/// Whether the caller is a fiber with sibling devices still running.
bool hasSiblingDevices();

/// Marks, for its lifetime, that a fiber of the calling thread waits by
/// polling (for another process's messages, which wake nobody): its
/// waiting siblings then keep handing it the thread instead of sleeping.
class PollingFiber {
public:
  PollingFiber();
  ~PollingFiber();
  PollingFiber(const PollingFiber &) = delete;
  PollingFiber &operator=(const PollingFiber &) = delete;
};
/// Whether a fiber of the calling thread polls (PollingFiber).
bool siblingPolls();

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_FIBERS_H
