//===- MockKernels.cpp - The runtime's collective kernels on the host ----===//
//
// Compiles lib/Runtime/cuda/CollectiveKernels.cu with DeviceShim.h so that
// the mock driver can run the very kernels the runtime embeds as PTX, and
// lists them by name for its cuModuleGetFunction.
//
//===----------------------------------------------------------------------===//

#include "DeviceShim.h"

#include "MockCuda.h"

#include "../../../lib/Runtime/CUDA/CollectiveKernels.cu"

thread_local pcc::mock::Dim3 blockIdx, blockDim, gridDim, threadIdx;

namespace pcc::mock {

#define PCC_MOCK_KERNELS(op)                                                   \
  {"pcc_reduce_" #op "_i8", pcc_reduce_##op##_i8},                             \
      {"pcc_reduce_" #op "_i16", pcc_reduce_##op##_i16},                       \
      {"pcc_reduce_" #op "_i32", pcc_reduce_##op##_i32},                       \
      {"pcc_reduce_" #op "_i64", pcc_reduce_##op##_i64},                       \
      {"pcc_reduce_" #op "_f16", pcc_reduce_##op##_f16},                       \
      {"pcc_reduce_" #op "_bf16", pcc_reduce_##op##_bf16},                     \
      {"pcc_reduce_" #op "_f32", pcc_reduce_##op##_f32}, {                     \
    "pcc_reduce_" #op "_f64", pcc_reduce_##op##_f64                            \
  }

const ReduceKernel kReduceKernels[] = {PCC_MOCK_KERNELS(sum),
                                       PCC_MOCK_KERNELS(max),
                                       PCC_MOCK_KERNELS(min),
                                       {nullptr, nullptr}};

} // namespace pcc::mock
