//===- DType.cpp - Element types and 16-bit float conversions -------------===//
//
// Names, sizes and `.npy` descriptors of the element types, and the exact
// conversions between float and the two 16-bit formats (those of
// pcc/Support/Float16.h, which builds with any C++17 compiler and rounds
// identically everywhere).
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"
#include "pcc/Support/Float16.h"

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

// The conversions are pcc's one implementation, in pcc/Support/Float16.h.
float halfToFloat(uint16_t bits) { return pcc::halfToFloat(bits); }

uint16_t floatToHalf(float value) { return pcc::floatToHalf(value); }

float bfloat16ToFloat(uint16_t bits) { return pcc::bf16ToFloat(bits); }

uint16_t floatToBFloat16(float value) { return pcc::floatToBf16(value); }

} // namespace pcc::arrayio
