//===- Builtins.cpp - compiler helper functions generated code may call --===//
//
// LLVM lowers a float-to-bfloat16 conversion to a call of __truncsfbf2, and
// a double-to-bfloat16 one to __truncdfbf2, on CPUs without a bfloat16
// conversion instruction (pcc turns those off: they flush subnormals), but
// libgcc gained the first only in GCC 13 and has not the second. pcc
// provides both, rounding once to nearest even (pcc/Support/Float16.h,
// pcc's one bfloat16 conversion).
//
//===----------------------------------------------------------------------===//

#include "pcc/Support/Float16.h"

#include <cstdint>
#include <cstring>

/// The x86-64 ABI returns a bfloat16 like a _Float16: the 16 bits in the
/// low half of xmm0. GCC 12 has _Float16 but no arithmetic __bf16, so the
/// bits travel through one.
static _Float16 asHalf(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, sizeof(half));
  return half;
}

extern "C" _Float16 __truncsfbf2(float value) {
  return asHalf(pcc::floatToBf16(value));
}

extern "C" _Float16 __truncdfbf2(double value) {
  return asHalf(pcc::doubleToBf16(value));
}
