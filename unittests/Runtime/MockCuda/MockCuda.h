//===- MockCuda.h - Internals shared by the mock driver and NCCL -*- C++
//-*-===//
//
// The mock libcuda.so.1 (MockCuda.cpp) exports these to the mock
// libnccl.so.2 (MockNccl.cpp), which links against it: NCCL operations are
// tasks on the mock's streams, and NCCL selects GPUs the way the real one
// does, by making their primary contexts current.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_MOCKCUDA_MOCKCUDA_H
#define PCC_UNITTESTS_RUNTIME_MOCKCUDA_MOCKCUDA_H

#include <functional>

namespace pcc::mock {

/// A kernel of CollectiveKernels.cu compiled for the host.
struct ReduceKernel {
  const char *name;
  void (*function)(const void *const *table, const char *base, long long stride,
                   long long n, void *out, long long count);
};
/// All of them, ending with a null name.
extern const ReduceKernel kReduceKernels[];

/// Queues `task` on a stream (a CUstream of the mock); a nonzero result is
/// the stream's sticky error. Returns a CUresult.
int enqueue(void *stream, std::function<int()> task);

/// Number of mock GPUs (PCC_MOCK_GPUS, default 1).
int gpuCount();

/// Makes GPU `gpu`'s primary context current on the calling thread.
void selectGpu(int gpu);

} // namespace pcc::mock

#endif // PCC_UNITTESTS_RUNTIME_MOCKCUDA_MOCKCUDA_H
