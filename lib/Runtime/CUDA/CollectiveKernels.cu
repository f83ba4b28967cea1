//===- CollectiveKernels.cu - all-reduce kernels of the cuda platform ----===//
//
// The reduction kernels that the cuda platform's collectives launch
// (CudaCollectives.cpp): each member of a group computes its whole result
// from all members' inputs, combining them in group-rank order, so the
// result is bitwise the same on every member and equal to the host
// runtime's (Collectives.cpp): integer sums wrap, f16/bf16 accumulate in f32
// and round once to nearest even, max/min propagate the first NaN in rank
// order. The 16-bit float conversions are pcc/Support/Float16.h's, as on the
// host. Compiled to PTX at build time (no fast-math, no FMA contraction, no
// flush to zero) and embedded in the runtime, which JIT-compiles it for the
// GPU at hand.
//
// Every kernel has the same parameters: input j is table[j] when `table` is
// not null, else base + j * stride bytes; n inputs; out receives count
// elements.
//
//===----------------------------------------------------------------------===//

#include "pcc/Support/Float16.h"

namespace {

// Each Op has Elem (stored type), Acc (accumulator), load, combine (in rank
// order: acc = combine(acc, next)) and store, as in Collectives.cpp.

template <typename U> struct WrapSum {
  using Elem = U; // Unsigned: wraps without undefined behaviour.
  using Acc = U;
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return Acc(a + b); }
  __device__ static Elem store(Acc a) { return a; }
};

template <typename T, bool IsMax> struct IntMinMax {
  using Elem = T;
  using Acc = T;
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) {
    return (IsMax ? b > a : b < a) ? b : a;
  }
  __device__ static Elem store(Acc a) { return a; }
};

struct F32Sum {
  using Elem = float;
  using Acc = float;
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return __fadd_rn(a, b); }
  __device__ static Elem store(Acc a) { return a; }
};

struct F64Sum {
  using Elem = double;
  using Acc = double;
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return __dadd_rn(a, b); }
  __device__ static Elem store(Acc a) { return a; }
};

/// NaN-propagating max/min: the first NaN in rank order wins.
template <typename T, bool IsMax> struct FloatMinMax {
  using Elem = T;
  using Acc = T;
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) {
    if (a != a)
      return a;
    if (b != b)
      return b;
    return (IsMax ? b > a : b < a) ? b : a;
  }
  __device__ static Elem store(Acc a) { return a; }
};

/// 16-bit float sums accumulate in f32 and round once, at the store.
template <bool IsBf16> struct Half16Sum {
  using Elem = unsigned short;
  using Acc = float;
  __device__ static Acc load(Elem x) {
    return IsBf16 ? pcc::bf16ToFloat(x) : pcc::halfToFloat(x);
  }
  __device__ static Acc combine(Acc a, Acc b) { return __fadd_rn(a, b); }
  __device__ static Elem store(Acc a) {
    return IsBf16 ? pcc::floatToBf16(a) : pcc::floatToHalf(a);
  }
};

/// 16-bit float max/min select one of the inputs (bits kept), comparing
/// through f32.
template <bool IsBf16, bool IsMax> struct Half16MinMax {
  using Elem = unsigned short;
  using Acc = unsigned short;
  __device__ static float value(Elem x) {
    return IsBf16 ? pcc::bf16ToFloat(x) : pcc::halfToFloat(x);
  }
  __device__ static Acc load(Elem x) { return x; }
  __device__ static Acc combine(Acc a, Acc b) {
    float fa = value(a), fb = value(b);
    if (fa != fa)
      return a;
    if (fb != fb)
      return b;
    return (IsMax ? fb > fa : fb < fa) ? b : a;
  }
  __device__ static Elem store(Acc a) { return a; }
};

template <typename Elem>
__device__ const Elem *input(const void *const *table, const char *base,
                             long long stride, long long j) {
  return static_cast<const Elem *>(
      table ? table[j] : static_cast<const void *>(base + j * stride));
}

template <typename Op>
__device__ void reduce(const void *const *table, const char *base,
                       long long stride, long long n, void *out,
                       long long count) {
  using Elem = typename Op::Elem;
  using Acc = typename Op::Acc;
  long long step = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
       i < count; i += step) {
    Acc acc = Op::load(input<Elem>(table, base, stride, 0)[i]);
    for (long long j = 1; j < n; ++j)
      acc = Op::combine(acc, Op::load(input<Elem>(table, base, stride, j)[i]));
    static_cast<Elem *>(out)[i] = Op::store(acc);
  }
}

} // namespace

#define PCC_REDUCE_KERNEL(name, ...)                                           \
  extern "C" __global__ void __launch_bounds__(256) pcc_reduce_##name(         \
      const void *const *table, const char *base, long long stride,            \
      long long n, void *out, long long count) {                               \
    reduce<__VA_ARGS__>(table, base, stride, n, out, count);                   \
  }
#define PCC_REDUCE_INT_KERNELS(type, S, U)                                     \
  PCC_REDUCE_KERNEL(sum_##type, WrapSum<U>)                                    \
  PCC_REDUCE_KERNEL(max_##type, IntMinMax<S, true>)                            \
  PCC_REDUCE_KERNEL(min_##type, IntMinMax<S, false>)

// The kernel names are pcc_reduce_<sum|max|min>_<dtype>; CudaCollectives.cpp
// spells them the same way.
PCC_REDUCE_INT_KERNELS(i8, signed char, unsigned char)
PCC_REDUCE_INT_KERNELS(i16, short, unsigned short)
PCC_REDUCE_INT_KERNELS(i32, int, unsigned)
PCC_REDUCE_INT_KERNELS(i64, long long, unsigned long long)
PCC_REDUCE_KERNEL(sum_f16, Half16Sum<false>)
PCC_REDUCE_KERNEL(max_f16, Half16MinMax<false, true>)
PCC_REDUCE_KERNEL(min_f16, Half16MinMax<false, false>)
PCC_REDUCE_KERNEL(sum_bf16, Half16Sum<true>)
PCC_REDUCE_KERNEL(max_bf16, Half16MinMax<true, true>)
PCC_REDUCE_KERNEL(min_bf16, Half16MinMax<true, false>)
PCC_REDUCE_KERNEL(sum_f32, F32Sum)
PCC_REDUCE_KERNEL(max_f32, FloatMinMax<float, true>)
PCC_REDUCE_KERNEL(min_f32, FloatMinMax<float, false>)
PCC_REDUCE_KERNEL(sum_f64, F64Sum)
PCC_REDUCE_KERNEL(max_f64, FloatMinMax<double, true>)
PCC_REDUCE_KERNEL(min_f64, FloatMinMax<double, false>)
