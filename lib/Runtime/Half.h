//===- Half.h - f16 and bf16 conversions for the pcc runtime ---*- C++ -*-===//
//
// Bit-level conversions between IEEE binary16 / bfloat16 and binary32. The
// collectives accumulate 16-bit floats in f32 and round once at the end, so
// they need exact widening and round-to-nearest-even narrowing; written by
// hand because neither _Float16 nor __bf16 arithmetic is portable C++17.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_HALF_H
#define PCC_LIB_RUNTIME_HALF_H

#include <cstdint>
#include <cstring>

namespace pcc::runtime {

inline float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

/// Exact binary16 -> binary32.
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24 is exact in binary32.
    float v = float(mant) * 0x1p-24f;
    return bitsToFloat(floatToBits(v) | sign);
  }
  if (exp == 0x1f) // Inf or NaN; keeps the payload.
    return bitsToFloat(sign | 0x7f800000u | (mant << 13));
  return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// binary32 -> binary16, round to nearest even; NaN stays NaN (quieted).
inline uint16_t floatToHalf(float f) {
  uint32_t x = floatToBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u)
    return uint16_t(sign | 0x7e00 | ((x >> 13) & 0x3ff));
  // 65520 and above round to infinity (65504 is the largest finite half and
  // 65520 the tie, which goes to the even neighbour, infinity).
  if (x >= 0x477ff000u)
    return uint16_t(sign | 0x7c00);
  if (x < 0x38800000u) {
    // Below 2^-14 the result is subnormal (or zero) with a fixed ulp of
    // 2^-24. Adding 0.5 (whose ulp is 2^-24) lets the FPU round to that ulp
    // (to nearest even); the low bits are then the half's mantissa, and a
    // carry into bit 10 correctly produces the smallest normal.
    float r = bitsToFloat(x) + 0.5f;
    return uint16_t(sign | (floatToBits(r) - 0x3f000000u));
  }
  // Normal: rebias the exponent and round the 13 dropped bits to even; a
  // carry out of the mantissa increments the exponent, as it should.
  uint32_t odd = (x >> 13) & 1;
  x += (uint32_t(15 - 127) << 23) + 0xfff + odd;
  return uint16_t(sign | (x >> 13));
}

/// Exact bfloat16 -> binary32.
inline float bf16ToFloat(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }

/// binary32 -> bfloat16, round to nearest even; NaN stays NaN (quieted).
inline uint16_t floatToBf16(float f) {
  uint32_t x = floatToBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40);
  // Overflow to infinity falls out of the carry into the exponent.
  x += 0x7fff + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_HALF_H
