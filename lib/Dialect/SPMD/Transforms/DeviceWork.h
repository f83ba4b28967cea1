//===- DeviceWork.h - How much a device function does ----------*- C++ -*-===//
//
// A static estimate of the work of one device's call of an outlined pmap
// body, which spmd.launch carries to the runtime: a pmap whose devices
// together do little runs on one thread, where meeting a peer costs no
// transfer between cores.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_TRANSFORMS_DEVICEWORK_H
#define PCC_LIB_TRANSFORMS_DEVICEWORK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace pcc {

/// The elements that one call of `device` reads and writes, counted op by
/// op over tensor values (loops times their static trip counts; a
/// collective reads the inputs of up to `numDevices` members), plus the
/// values of `written` types that it stores into its outputs (the device's
/// parts of the pmap's results, which outlining writes after estimating), or
/// nullopt when that is not known at compile time: a dynamic shape or trip
/// count, a call, or an op with regions it does not know.
std::optional<int64_t> estimateDeviceWork(mlir::func::FuncOp device,
                                          int64_t numDevices,
                                          mlir::TypeRange written);

} // namespace pcc

#endif // PCC_LIB_TRANSFORMS_DEVICEWORK_H
