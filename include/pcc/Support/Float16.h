//===- Float16.h - f16 and bf16 <-> f32 conversions ------------*- C++ -*-===//
//
// The one implementation of pcc's conversions between the two 16-bit float
// formats (IEEE binary16 "f16" and bfloat16 "bf16") and binary32: the array
// I/O library (lib/ArrayIO), the runtime's collectives on the host
// (lib/Runtime) and on GPUs (lib/Runtime/cuda/CollectiveKernels.cu, compiled
// by nvcc), and the runtime's __truncsfbf2 and __truncdfbf2 for generated
// code all use it.
//
// Header-only, C++17, no dependencies beyond the standard library, and
// integer operations only: the results do not depend on the compiler, on
// `_Float16`/`__bf16` support, or on the floating-point environment (flush
// to zero, denormals-are-zero). The *Bits functions are constexpr.
//
// Semantics (checked against NumPy for every 16-bit pattern and millions of
// binary32 values by test/Support/float16-numpy.test):
//  - Widening is exact. A NaN keeps its sign and payload (shifted into the
//    top of the binary32 payload), as NumPy does; a signaling NaN stays
//    signaling.
//  - Narrowing rounds to nearest, ties to even, including into and out of
//    the subnormals; finite values from halfway past the largest finite
//    value (65520 for f16) up overflow to infinity. A NaN stays a NaN of
//    the same sign, quiet, with the top bits of its payload: what LLVM,
//    compiler-rt's __truncsfhf2 and the x86 conversion instructions
//    produce. (NumPy keeps a signaling NaN signaling instead; for a quiet
//    NaN the two agree bit for bit.)
//
//===----------------------------------------------------------------------===//

#ifndef PCC_SUPPORT_FLOAT16_H
#define PCC_SUPPORT_FLOAT16_H

#include <cstdint>
#include <cstring>

// Callable from host code and, in a file nvcc compiles, from device code.
#ifdef __CUDACC__
#define PCC_FLOAT16_FN __host__ __device__
#else
#define PCC_FLOAT16_FN
#endif

namespace pcc {

//===----------------------------------------------------------------------===//
// On bit patterns (constexpr)
//===----------------------------------------------------------------------===//

/// binary16 bits -> binary32 bits, exactly.
PCC_FLOAT16_FN constexpr uint32_t halfBitsToFloatBits(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) // Infinity or NaN, payload kept.
    return sign | 0x7f800000u | (mant << 13);
  if (exp != 0) // Normal: rebias the exponent from 15 to 127.
    return sign | ((exp + (127 - 15)) << 23) | (mant << 13);
  if (mant == 0)
    return sign;
  // Subnormal, mant * 2^-24: normalise; every one is a normal binary32.
  uint32_t e = 127 - 14;
  while (!(mant & 0x400u)) {
    mant <<= 1;
    --e;
  }
  return sign | (e << 23) | ((mant & 0x3ffu) << 13);
}

/// binary32 bits -> binary16 bits, rounding to nearest even.
PCC_FLOAT16_FN constexpr uint16_t floatBitsToHalfBits(uint32_t x) {
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) // NaN: the top 10 payload bits, made quiet.
    return uint16_t(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
  if (abs >= 0x47800000u) // 2^16 and above, and infinity.
    return uint16_t(sign | 0x7c00u);
  uint32_t exp = abs >> 23;
  if (exp >= 127 - 14) {
    // Normal: rebias and round away the 13 low bits to even. A carry out of
    // the mantissa bumps the exponent, up to infinity from 65520 on.
    uint32_t h = ((exp - (127 - 15)) << 10) | ((abs >> 13) & 0x3ffu);
    uint32_t rest = abs & 0x1fffu;
    h += rest > 0x1000u || (rest == 0x1000u && (h & 1));
    return uint16_t(sign | h);
  }
  // Subnormal or zero: count units of 2^-24. The value is mant * 2^(exp -
  // 150) (binary32 subnormals, exp 0, are far below half a unit).
  uint32_t shift = (127 - 1) - exp; // 14 or more
  // Below 2^-25, half a unit, everything rounds to zero.
  if (shift > 24)
    return uint16_t(sign);
  uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
  uint32_t h = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  // A carry to 0x400 is the smallest normal, as it should be.
  h += rest > halfway || (rest == halfway && (h & 1));
  return uint16_t(sign | h);
}

/// bfloat16 bits -> binary32 bits, exactly (NaN payloads kept).
PCC_FLOAT16_FN constexpr uint32_t bf16BitsToFloatBits(uint16_t b) {
  return uint32_t(b) << 16;
}

/// binary32 bits -> bfloat16 bits, rounding to nearest even.
PCC_FLOAT16_FN constexpr uint16_t floatBitsToBf16Bits(uint32_t x) {
  if ((x & 0x7fffffffu) > 0x7f800000u) // NaN: top 7 payload bits, quiet.
    return uint16_t((x >> 16) | 0x40u);
  // Round the low 16 bits to even; a carry bumps the exponent, up to
  // infinity (the largest finite binary32 values round there too).
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// binary64 bits -> binary32 bits, rounding to odd: toward zero, and the
/// lowest bit set where any bit was lost. Rounding that once more, to
/// nearest even, to a format of 22 bits of precision or fewer (bfloat16,
/// binary16) gives the value rounded once from binary64: no double
/// rounding. A NaN keeps its sign and the top of its payload, quiet.
PCC_FLOAT16_FN constexpr uint32_t doubleBitsToFloatBitsOdd(uint64_t x) {
  uint32_t sign = uint32_t(x >> 32) & 0x80000000u;
  uint64_t abs = x & 0x7fffffffffffffffull;
  uint64_t mant = abs & 0xfffffffffffffull;
  int32_t exp = int32_t(abs >> 52);
  if (exp == 0x7ff) // Infinity, or NaN (quiet, top 22 payload bits).
    return sign | 0x7f800000u | (mant ? 0x400000u | uint32_t(mant >> 29) : 0u);
  int32_t e = exp - 1023; // abs = 1.mant * 2^e (normal binary64)
  if (e > 127)            // Past the largest binary32: it, with bit 0 set.
    return sign | 0x7f7fffffu;
  if (exp == 0) // A binary64 subnormal: far below binary32's least value.
    return sign | uint32_t(mant != 0);
  uint64_t significand = mant | (uint64_t(1) << 52);
  // Bits dropped from the 53-bit significand: 29 for a normal binary32,
  // more for a subnormal one (units of 2^-149).
  int32_t shift = e >= -126 ? 29 : 29 + (-126 - e);
  if (shift >= 64)
    return sign | 1u;
  uint32_t kept = uint32_t(significand >> shift);
  uint32_t sticky = (significand & ((uint64_t(1) << shift) - 1)) != 0;
  if (e >= -126) // Normal: the exponent replaces the implicit bit.
    kept = (uint32_t(e + 127) << 23) | (kept & 0x7fffffu);
  return sign | kept | sticky;
}

//===----------------------------------------------------------------------===//
// On values
//===----------------------------------------------------------------------===//

PCC_FLOAT16_FN inline float bitsToFloat(uint32_t bits) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
#endif
}

PCC_FLOAT16_FN inline uint32_t floatToBits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
#endif
}

/// binary16 bits -> float, exactly.
PCC_FLOAT16_FN inline float halfToFloat(uint16_t h) {
  return bitsToFloat(halfBitsToFloatBits(h));
}

/// float -> binary16 bits, rounding to nearest even.
PCC_FLOAT16_FN inline uint16_t floatToHalf(float f) {
  return floatBitsToHalfBits(floatToBits(f));
}

/// bfloat16 bits -> float, exactly.
PCC_FLOAT16_FN inline float bf16ToFloat(uint16_t b) {
  return bitsToFloat(bf16BitsToFloatBits(b));
}

/// float -> bfloat16 bits, rounding to nearest even.
PCC_FLOAT16_FN inline uint16_t floatToBf16(float f) {
  return floatBitsToBf16Bits(floatToBits(f));
}

/// double -> bfloat16 bits, rounding once to nearest even.
inline uint16_t doubleToBf16(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return floatBitsToBf16Bits(doubleBitsToFloatBitsOdd(bits));
}

} // namespace pcc

#undef PCC_FLOAT16_FN

#endif // PCC_SUPPORT_FLOAT16_H
