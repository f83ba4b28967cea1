//===- RuntimeError.h - The one error a failing run prints -----*- C++ -*-===//

#ifndef PCC_LIB_RUNTIME_RUNTIMEERROR_H
#define PCC_LIB_RUNTIME_RUNTIMEERROR_H

#include <string>

namespace pcc::runtime {

/// Prints `pcc runtime error: MESSAGE` and ends the process with status 1.
/// Devices that fail at once (every member of a group, every device past an
/// index) print one message: the first; the others wait for the exit.
[[noreturn]] void failRun(const std::string &message);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_RUNTIMEERROR_H
