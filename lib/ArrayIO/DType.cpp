//===- DType.cpp - Element types and 16-bit float conversions -------------===//
//
// Names, sizes and `.npy` descriptors of the element types, and the exact
// conversions between float and the two 16-bit formats. The conversions are
// written out with integer operations rather than taken from the compiler
// (`_Float16`, `__bf16`) so that the library builds with any C++17 compiler
// and rounds identically everywhere.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <cstring>

namespace pcc::arrayio {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::Bool:
    return 1;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  return 1;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return "int8";
  case DType::I16:
    return "int16";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::F32:
    return "float32";
  case DType::F64:
    return "float64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "bfloat16";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::Bool:
    return "|b1";
  }
  return "?";
}

bool isFloatingPoint(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

int64_t Array::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  uint32_t out;
  if (exp == 0x1f) {
    out = sign | 0x7f800000 | (mant << 13);
  } else if (exp != 0) {
    out = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  } else if (mant == 0) {
    out = sign;
  } else {
    // Subnormal half: normalise, every one is a normal float.
    int e = -14;
    while (!(mant & 0x400)) {
      mant <<= 1;
      --e;
    }
    out = sign | (uint32_t(e + 127) << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &out, sizeof f);
  return f;
}

uint16_t floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7fffffff;
  if (absx >= 0x7f800000) {
    if (absx == 0x7f800000)
      return sign | 0x7c00;
    // Keep the top payload bits and force a quiet NaN.
    return uint16_t(sign | 0x7e00 | ((absx >> 13) & 0x3ff));
  }
  int exp = int(absx >> 23) - 127;
  if (exp > 15)
    return sign | 0x7c00;
  if (exp >= -14) {
    uint32_t mant = absx & 0x7fffff;
    uint32_t h = (uint32_t(exp + 15) << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fff;
    // A carry out of the mantissa correctly bumps the exponent (to infinity
    // above 65504).
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
      ++h;
    return uint16_t(sign | h);
  }
  if (exp < -25)
    return sign;
  // Subnormal half: the result counts units of 2^-24.
  uint32_t mant = (absx & 0x7fffff) | 0x800000;
  int shift = -(exp + 1);
  uint32_t h = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (h & 1)))
    ++h;
  return uint16_t(sign | h);
}

float bfloat16ToFloat(uint16_t bits) {
  uint32_t x = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

uint16_t floatToBFloat16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  if ((x & 0x7fffffff) > 0x7f800000)
    return uint16_t((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}

} // namespace pcc::arrayio
