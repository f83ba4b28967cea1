//===- Sim.h - The simulated GPU's parts, shared among them -----*- C++ -*-===//
//
// The simulated GPU (--backend=cuda-sim) stands in for libcuda.so.1
// (SimDriver.cpp) and libnccl.so.2 (SimNccl.cpp) behind the tables of
// CudaDriver.h, so that the cuda platform runs unchanged on the CPU. It is
// deliberately strict where a real driver may be lenient: every call that
// needs a context checks that one is current, a launch checks that the
// kernel and the stream belong to the current context, streams run their
// work asynchronously on threads of their own (with a small delay, so that a
// missing synchronization shows up as wrong data), memory is poisoned when
// allocated and only known pointers may be freed. Kernels run in
// SimKernels.cpp: those of the cuda-sim pipeline (pcc_sim_image) and the
// runtime's own collective kernels compiled for the host
// (SimCollectiveKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_SIM_SIM_H
#define PCC_LIB_RUNTIME_SIM_SIM_H

#include "pcc/Runtime/pcc_runtime.h"

#include <cstdint>
#include <functional>
#include <string>

namespace pcc::sim {

/// Sets the number of simulated GPUs (PCC_SIM_GPUS overrides `gpus`).
/// Returns false with `message` set if PCC_SIM_GPUS is not a valid count.
bool configure(int64_t gpus, std::string &message);

/// Queues `task` on a stream (a CUstream of the simulator); a nonzero result
/// is the stream's sticky error. Returns a CUresult.
int enqueue(void *stream, std::function<int()> task);

/// Number of simulated GPUs.
int gpuCount();

/// Makes GPU `gpu`'s primary context current on the calling thread.
void selectGpu(int gpu);

/// The GPU whose context is current on the calling thread, or -1.
int currentGpu();

/// A kernel of CollectiveKernels.cu compiled for the host.
struct ReduceKernel {
  const char *name;
  void (*function)(const void *const *table, const char *base, long long stride,
                   long long n, void *out, long long count);
};
/// All of them, ending with a null name.
extern const ReduceKernel kReduceKernels[];

/// Runs one of them over a grid of gx blocks of bx threads.
void runReduceKernel(const ReduceKernel &kernel, unsigned gx, unsigned bx,
                     void **params);

/// Runs a kernel of the cuda-sim pipeline over a grid, with the parameter
/// values `params` (one pointer per parameter, copied at launch). A fault
/// (an access out of bounds, a barrier not all threads reach) ends the
/// process with an error naming the kernel, the block and the thread.
void runKernel(const pcc_sim_kernel &kernel, const unsigned grid[3],
               const unsigned block[3], void **params);

} // namespace pcc::sim

#endif // PCC_LIB_RUNTIME_SIM_SIM_H
