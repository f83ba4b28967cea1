//===- RuntimeError.cpp - The one error a failing run prints --------------===//

#include "RuntimeError.h"

#include "Processes.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace pcc::runtime {

void reportError(const std::string &message, const char *prefix) {
  if (!firstToReport())
    return;
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", prefix, message.c_str());
  std::fflush(stderr);
}

void failRun(const std::string &message) {
  static std::atomic<bool> failing{false};
  if (!failing.exchange(true)) {
    // Under mpirun, once per machine: the launcher ends the others.
    reportError(message);
    std::_Exit(1);
  }
  for (;;)
    std::this_thread::sleep_for(std::chrono::seconds(1));
}

void failRunAfterPeer(const std::string &message) {
  // Open MPI's mpirun ends the other processes within a second of one's
  // failure.
  std::this_thread::sleep_for(std::chrono::seconds(5));
  failRun(message);
}

} // namespace pcc::runtime
