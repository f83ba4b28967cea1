//===- RuntimeTestUtil.h - Helpers for the runtime unit tests --*- C++ -*-===//
//
// Shared by the runtime tests: a way to run a C++ lambda as the body of
// pcc_run_devices (the C ABI takes a function pointer and a context), and
// a scoped limit on the threads that run devices.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
#define PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H

#include "pcc/Runtime/pcc_runtime.h"

#include <cstdint>
#include <type_traits>

namespace pcc::test {

/// Runs `f(device)` on `numDevices` device threads via pcc_run_devices.
template <typename F> int32_t runDevices(int64_t numDevices, F &&f) {
  using Fn = std::remove_reference_t<F>;
  return pcc_run_devices(
      numDevices,
      [](void *ctx, int64_t device) { (*static_cast<Fn *>(ctx))(device); },
      const_cast<void *>(static_cast<const void *>(&f)));
}

/// Limits the threads that run devices (pcc_set_host_threads) for the
/// lifetime of the object: devices beyond them run as fibers.
class HostThreads {
public:
  explicit HostThreads(int64_t threads) { pcc_set_host_threads(threads); }
  ~HostThreads() { pcc_set_host_threads(0); }
  HostThreads(const HostThreads &) = delete;
  HostThreads &operator=(const HostThreads &) = delete;
};

} // namespace pcc::test

#endif // PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
