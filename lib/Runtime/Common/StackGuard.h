//===- StackGuard.h - Recursion that would overflow a device's stack -*- C++
//-*-===//
//
// Generated code calls pcc_mlir_check_stack at the entry of every function
// that may recurse (pcc-guard-recursion); it ends the run with an error
// naming the function and the device once fewer than kStackReserve bytes of
// the stack are left, before the stack overflows into its guard page (a
// signal) or, worse, into a neighbour's memory. Only recursion can exhaust a
// stack in pcc programs: they cannot allocate on the stack, and a chain of
// calls without recursion is bounded by the program's size. The runtime
// knows which stack a device runs on: its thread's own, or its fiber's.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_STACKGUARD_H
#define PCC_LIB_RUNTIME_STACKGUARD_H

#include <cstddef>
#include <cstdint>

namespace pcc::runtime {

/// What must remain of a stack at a checked function's entry: room for its
/// frame and for the runtime and library calls it makes.
constexpr size_t kStackReserve = size_t(256) << 10;

/// From now on this thread runs `device`, on the stack [low, low + size),
/// or on the thread's own stack if `low` is null.
void enterDeviceStack(int64_t device, const char *low = nullptr,
                      size_t size = 0);

/// From now on this thread runs host code (no device) on its own stack.
void leaveDeviceStack();

/// Under mpirun, device d of this process's launch is the pmap's device
/// `first` + d (Processes.h): the number runningDevice() gives it.
void numberDevicesFrom(int64_t first);

/// The pmap's number of the device this thread (or fiber) runs, or -1 in
/// host code: run-time errors name it.
int64_t runningDevice();

/// Whether the calling thread's own stack has at least `size` bytes. The
/// main thread's grows on demand up to RLIMIT_STACK (8 MiB by default),
/// which this raises to `size` if the hard limit allows.
bool ensureThreadStack(size_t size);

/// Ends the process with an error naming `function` if the caller's stack
/// has fewer than kStackReserve bytes left.
void checkStack(const char *function);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_STACKGUARD_H
