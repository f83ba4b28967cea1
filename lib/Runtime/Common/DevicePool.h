//===- DevicePool.h - Device threads of the host runtime -------*- C++ -*-===//
//
// What pcc_run_devices does, for the platforms: the cuda platform binds each
// device to its thread and so cannot share a thread between devices.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_DEVICEPOOL_H
#define PCC_LIB_RUNTIME_DEVICEPOOL_H

#include <cstdint>

namespace pcc::runtime {

/// pcc_run_devices; with `threadPerDevice`, every device gets a thread of its
/// own even when devices outnumber the host threads (no fibers). `work` is
/// pcc_launch's (-1: unknown); `site` names the pmap, whose launches are
/// timed to choose between one thread and several.
int32_t runDevices(int64_t numDevices,
                   void (*body)(void *args, int64_t device), void *args,
                   bool threadPerDevice, int64_t work,
                   const void *site = nullptr);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_DEVICEPOOL_H
