//===- SimCollectiveKernels.cpp - The runtime's own kernels on the host ---===//
//
// Compiles lib/Runtime/CUDA/CollectiveKernels.cu with DeviceShim.h, so that
// the simulated GPU runs the very kernels the runtime embeds as PTX (one
// thread at a time: they neither synchronize nor share memory), and lists
// them by name for its cuModuleGetFunction.
//
//===----------------------------------------------------------------------===//

#include "DeviceShim.h"

#include "Sim.h"

#include "../CUDA/CollectiveKernels.cu"

#include <cstring>

thread_local pcc::sim::Dim3 blockIdx, blockDim, gridDim, threadIdx;

namespace pcc::sim {

#define PCC_SIM_KERNELS(op)                                                    \
  {"pcc_reduce_" #op "_i8", pcc_reduce_##op##_i8},                             \
      {"pcc_reduce_" #op "_i16", pcc_reduce_##op##_i16},                       \
      {"pcc_reduce_" #op "_i32", pcc_reduce_##op##_i32},                       \
      {"pcc_reduce_" #op "_i64", pcc_reduce_##op##_i64},                       \
      {"pcc_reduce_" #op "_f16", pcc_reduce_##op##_f16},                       \
      {"pcc_reduce_" #op "_bf16", pcc_reduce_##op##_bf16},                     \
      {"pcc_reduce_" #op "_f32", pcc_reduce_##op##_f32}, {                     \
    "pcc_reduce_" #op "_f64", pcc_reduce_##op##_f64                            \
  }

const ReduceKernel kReduceKernels[] = {PCC_SIM_KERNELS(sum),
                                       PCC_SIM_KERNELS(max),
                                       PCC_SIM_KERNELS(min),
                                       {nullptr, nullptr}};

void runReduceKernel(const ReduceKernel &kernel, unsigned gx, unsigned bx,
                     void **params) {
  using Table = const void *const *;
  Table table;
  const char *base;
  long long stride, n, count;
  void *out;
  std::memcpy(&table, params[0], sizeof(table));
  std::memcpy(&base, params[1], sizeof(base));
  std::memcpy(&stride, params[2], sizeof(stride));
  std::memcpy(&n, params[3], sizeof(n));
  std::memcpy(&out, params[4], sizeof(out));
  std::memcpy(&count, params[5], sizeof(count));
  gridDim = {gx, 1, 1};
  blockDim = {bx, 1, 1};
  for (unsigned b = 0; b < gx; ++b)
    for (unsigned t = 0; t < bx; ++t) {
      blockIdx = {b, 0, 0};
      threadIdx = {t, 0, 0};
      kernel.function(table, base, stride, n, out, count);
    }
}

} // namespace pcc::sim
