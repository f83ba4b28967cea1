//===- RuntimeTestUtil.h - Helpers for the runtime unit tests --*- C++ -*-===//
//
// Shared by the runtime tests: a way to run a C++ lambda as the body of
// pcc_run_devices (the C ABI takes a function pointer and a context), a
// scoped limit on the threads that run devices, and a way to run one test
// in a process of its own (for what a process reads once, or a second
// process).
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
#define PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H

#include "pcc/Runtime/pcc_runtime.h"

#include <spawn.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

extern char **environ;

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

/// Starts this test binary again, running only the disabled test `test`
/// ("Suite.DISABLED_Name"), with this environment plus `variables`
/// ("NAME=value") but without GoogleTest's sharding and output variables
/// (lit's), which would make it run another test or none. Returns the
/// child's pid, or -1.
inline pid_t spawnTest(const std::string &test,
                       std::vector<std::string> variables = {}) {
  std::string self = "/proc/self/exe", filter = "--gtest_filter=" + test;
  std::string also = "--gtest_also_run_disabled_tests";
  char *argv[] = {self.data(), filter.data(), also.data(), nullptr};
  for (char **variable = environ; *variable; ++variable)
    if (std::strncmp(*variable, "GTEST_", 6) != 0)
      variables.push_back(*variable);
  std::vector<char *> envp;
  for (std::string &variable : variables)
    envp.push_back(variable.data());
  envp.push_back(nullptr);
  pid_t child = -1;
  if (posix_spawn(&child, self.c_str(), nullptr, nullptr, argv,
                  envp.data()) != 0)
    return -1;
  return child;
}

} // namespace pcc::test

#endif // PCC_UNITTESTS_RUNTIME_RUNTIMETESTUTIL_H
