//===- DeviceShim.h - Compile CUDA kernels as host C++ ---------*- C++ -*-===//
//
// Just enough of CUDA C++ for the mock driver (MockCuda.cpp) to compile the
// runtime's CollectiveKernels.cu as ordinary host code and run its kernels
// one thread at a time: qualifiers vanish, the built-in indices are
// thread-local variables that the mock's launch loop sets, and the
// intrinsics are their IEEE host equivalents. The mock thereby tests the
// real kernel source against the reference, without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_MOCKCUDA_DEVICESHIM_H
#define PCC_UNITTESTS_RUNTIME_MOCKCUDA_DEVICESHIM_H

#include <cstring>

#define __global__
#define __device__
#define __launch_bounds__(threads)

namespace pcc::mock {
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};
} // namespace pcc::mock

extern thread_local pcc::mock::Dim3 blockIdx, blockDim, gridDim, threadIdx;

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

#endif // PCC_UNITTESTS_RUNTIME_MOCKCUDA_DEVICESHIM_H
