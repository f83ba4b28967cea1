//===- GpuPlatform.h - what the cuda runtime lends the common one -*- C++
//-*-===//
//
// The common runtime (PCCRuntime) holds no CUDA code, so that the
// executable of a cpu program carries none. The cuda runtime
// (PCCRuntimeCUDA) activates its platform here when it first comes into use
// (pcc_cuda_init or a launch); from then on generic allocations are managed
// memory, and the memref entry points run collectives on the GPUs when the
// calling thread runs a device.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_GPUPLATFORM_H
#define PCC_LIB_RUNTIME_GPUPLATFORM_H

#include <cstdint>

namespace pcc::runtime {

struct Collective;

struct GpuPlatform {
  /// A generic allocation (MLIR's _mlir_memref_to_llvm_aligned_alloc).
  void *(*alloc)(uint64_t alignment, uint64_t size);
  void (*free)(void *ptr);
  /// Whether the calling thread runs a device of the platform.
  bool (*isDeviceThread)();
  /// A collective on the GPUs, for a device thread.
  void (*collective)(const Collective &call);
};

/// The GPU platform in use, or null while programs run on the host.
const GpuPlatform *activeGpuPlatform();

/// Puts `platform` in use, for good (the cuda runtime's first use).
void activateGpuPlatform(const GpuPlatform *platform);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_GPUPLATFORM_H
