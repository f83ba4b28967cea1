//===- RuntimeError.h - The one error a failing run prints -----*- C++ -*-===//

#ifndef PCC_LIB_RUNTIME_RUNTIMEERROR_H
#define PCC_LIB_RUNTIME_RUNTIMEERROR_H

#include <string>

namespace pcc::runtime {

/// Prints `PREFIX: MESSAGE` on stderr, unless another process of this
/// machine has printed an error (under mpirun, processes that fail
/// together, each at the same check, print one message).
void reportError(const std::string &message,
                 const char *prefix = "pcc runtime error");

/// Prints `pcc runtime error: MESSAGE` and ends the process with status 1.
/// Devices that fail at once (every member of a group, every device past an
/// index) print one message: the first; the others wait for the exit.
[[noreturn]] void failRun(const std::string &message);

/// failRun for an error that another process of an MPI job finds too, and
/// reports: waits a few seconds for the launcher to end this process when
/// that one exits, and reports the error itself only if it lives on.
[[noreturn]] void failRunAfterPeer(const std::string &message);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_RUNTIMEERROR_H
