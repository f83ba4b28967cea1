//===- DeviceShim.h - Compile CUDA kernels as host C++ ---------*- C++ -*-===//
//
// Just enough of CUDA C++ for the simulated GPU (SimCollectiveKernels.cpp)
// to compile the runtime's CollectiveKernels.cu as ordinary host code and run
// its kernels one thread at a time: qualifiers vanish, the built-in indices
// are thread-local variables that the launch loop sets, and the intrinsics
// are their IEEE host equivalents.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_SIM_DEVICESHIM_H
#define PCC_LIB_RUNTIME_SIM_DEVICESHIM_H

#include <cstring>

#define __global__
#define __device__
#define __launch_bounds__(threads)

namespace pcc::sim {
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};
} // namespace pcc::sim

extern thread_local pcc::sim::Dim3 blockIdx, blockDim, gridDim, threadIdx;

inline float __uint_as_float(unsigned bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
inline unsigned __float_as_uint(float f) {
  unsigned bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}
inline float __fadd_rn(float a, float b) { return a + b; }
inline double __dadd_rn(double a, double b) { return a + b; }

#endif // PCC_LIB_RUNTIME_SIM_DEVICESHIM_H
