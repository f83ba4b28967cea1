//===- Stages.h - the stages that both backends' pipelines share -*- C++ -*-===//
//
// Private to lib/Pipelines: CpuPipeline.cpp and CudaPipeline.cpp build their
// pipelines around these.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_PIPELINES_STAGES_H
#define PCC_LIB_PIPELINES_STAGES_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace pcc::detail {

/// From spmd on tensors to buffers: the program checked to be closed, the
/// entry given a C ABI, pmean expanded, pmap bodies outlined into device
/// functions on a flattened grid, collectives turned into runtime calls,
/// then bufferized, with deallocations. `cuda`: contiguous buffers for the
/// collectives, and constants copied out of globals for the kernels.
void buildBufferStages(mlir::OpPassManager &pm, mlir::StringRef entry,
                       int64_t memoryLimit, bool cuda);

/// The host code to the LLVM dialect, the runtime calls and launches
/// included, and checked to call nothing but the runtime and libm. The
/// cuda backend's devices are launched by pcc_cuda_launch.
void buildHostToLLVMStages(mlir::OpPassManager &pm, bool cuda);

} // namespace pcc::detail

#endif // PCC_LIB_PIPELINES_STAGES_H
