//===- CudaPlatform.h - internals of the runtime's cuda platform -*- C++
//-*-===//
//
// What CudaPlatform.cpp (devices, contexts, streams, memory, modules, the
// mgpu* ABI) shares with CudaCollectives.cpp, and the pure
// decisions (where a logical device runs, which algorithm a collective uses)
// that the unit tests check without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_CUDAPLATFORM_H
#define PCC_LIB_RUNTIME_CUDAPLATFORM_H

#include "CudaDriver.h"

#include <cstdint>
#include <string>

namespace pcc::runtime {

struct Collective;

//===----------------------------------------------------------------------===//
// Pure decisions
//===----------------------------------------------------------------------===//

/// The GPU of a process's `index`-th device (in its block of the pmap's
/// devices) when its devices start at GPU `firstGpu` (0, or a share of the
/// machine's GPUs for each of the processes that an MPI job runs on it).
inline int64_t gpuOfDevice(int64_t index, int64_t firstGpu, int64_t gpus) {
  return (firstGpu + index) % gpus;
}

/// Whether `numDevices` logical devices (in each of `processes` processes)
/// may run on `gpus` GPUs; if not, `message` says why and what to do.
bool checkPlacement(int64_t numDevices, int64_t gpus, bool oversubscribe,
                    std::string &message, int64_t processes = 1);

/// How the cuda platform performs a collective.
enum class CudaCollectivePath {
  /// The group has one member: a copy (or nothing).
  Local,
  /// NCCL moves the data (integer all-reduces are NCCL's own; other
  /// all-reduces gather with NCCL and reduce locally in rank order).
  Nccl,
  /// The members meet on the host and pcc's kernels read the peers'
  /// managed buffers.
  Peer,
  /// The host's collective between the processes of an MPI job, over the
  /// managed buffers (a group across processes sharing GPUs).
  Processes,
};

/// Where a job's devices run: `processes` processes of an MPI job (1
/// without one), `processesPerMachine` of them on each machine, each
/// machine with `gpus` GPUs.
struct GpuLayout {
  int64_t gpus;
  int64_t processes = 1;
  int64_t processesPerMachine = 1;
  /// Whether NCCL reaches other machines (the simulated one does not).
  bool ncclSpansMachines = true;
};

/// The path of a collective over the axes `mask` of a grid `dims`, whose
/// group has members in several processes if `spansProcesses`. NCCL is
/// used only when every member has a GPU of its own: NCCL kernels block
/// until their peers arrive, so two devices issuing NCCL operations to one
/// GPU from two threads (in no agreed order) can deadlock, as NCCL's
/// documentation warns, and NCCL refuses a communicator whose ranks in
/// several processes share a GPU. A process's devices take GPUs in turn
/// from its place on its machine (gpuOfDevice).
CudaCollectivePath chooseCollectivePath(int64_t gridRank, const int64_t *dims,
                                        uint64_t mask, const GpuLayout &layout,
                                        bool spansProcesses = false);

/// The PTX of the collective kernels (lib/Runtime/cuda), or null if the
/// runtime was built without nvcc.
const char *collectiveKernelsPtx();

/// The kernel of CollectiveKernels.cu that reduces `dtype` with `reduction`
/// (e.g. "pcc_reduce_sum_f32"), or null if there is none.
const char *collectiveKernelName(int32_t reduction, int32_t dtype);

//===----------------------------------------------------------------------===//
// The platform
//===----------------------------------------------------------------------===//

/// A logical device: its GPU and stream, and scratch memory that only the
/// thread bound to it uses.
struct CudaDevice {
  int64_t index = 0;
  int gpu = 0;
  cuda::CUcontext context = nullptr;
  cuda::CUstream stream = nullptr;
  /// Managed scratch buffer and table of input pointers for collectives.
  void *scratch = nullptr;
  size_t scratchBytes = 0;
  const void **table = nullptr;
  size_t tableEntries = 0;
};

/// The driver; only valid once a device is bound or the platform is
/// initialized.
const cuda::Driver &cudaDriver();

/// The device the calling thread is bound to (inside pcc_cuda_launch), or
/// null (host code).
CudaDevice *boundCudaDevice();

/// Number of GPUs (the platform must be initialized).
int64_t cudaGpuCount();

/// The GPU that device `device` of a pmap of `devices` runs on; the device
/// must be one of this process's.
int cudaGpuOf(int64_t device, int64_t devices);

/// The context (its GPU's primary context) of device `device` of a pmap of
/// `devices`, one of this process's.
cuda::CUcontext cudaContextOf(int64_t device, int64_t devices);

/// Prints "pcc: error: [device D (GPU G): ]<message>" and ends the process
/// with status 1.
[[noreturn]] void cudaFatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// Ends the process like cudaFatal if `result` is an error, appending the
/// CUDA error's name and description to the message.
void cudaCheck(cuda::CUresult result, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Allocates managed memory (in the current context), ending the process on
/// failure.
void *cudaAllocManaged(int64_t bytes);

/// A generic allocation on the cuda platform: managed memory, with an
/// alignment of at most 256 bytes.
void *cudaGenericAlloc(uint64_t alignment, uint64_t size);

/// Synchronizes the device's stream; a failure (of a kernel launched on it)
/// ends the process.
void cudaSyncDevice(CudaDevice &device);

/// Launches the embedded collective kernel `name` (loaded into the GPU on
/// first use) on the bound device's stream with `blocks` blocks of
/// `threads` threads. Requires the kernels.
void launchCollectiveKernel(const char *name, unsigned blocks, unsigned threads,
                            void **params);

/// A collective (pcc_all_reduce, pcc_all_gather, ...: Collectives.h) for a
/// thread bound to a cuda device: buffers are managed memory, the result is
/// complete (the stream synchronized) on return.
void cudaCollective(const Collective &call);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_CUDAPLATFORM_H
