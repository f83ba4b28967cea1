//===- Builtins.cpp - compiler helper functions generated code may call --===//
//
// LLVM lowers a float-to-bfloat16 conversion to a call of __truncsfbf2 on
// CPUs without a bfloat16 conversion instruction (the generic x86-64 CPU of
// `pcc compile` executables among them), but libgcc gained the function only
// in GCC 13. pcc provides it, rounding to nearest even like the instruction
// (pcc/Support/Float16.h, pcc's one bfloat16 conversion).
//
//===----------------------------------------------------------------------===//

#include "pcc/Support/Float16.h"

#include <cstdint>
#include <cstring>

/// The x86-64 ABI returns a bfloat16 like a _Float16: the 16 bits in the
/// low half of xmm0. GCC 12 has _Float16 but no arithmetic __bf16, so the
/// bits travel through one.
extern "C" _Float16 __truncsfbf2(float value) {
  uint16_t result = pcc::floatToBf16(value);
  _Float16 half;
  std::memcpy(&half, &result, sizeof(half));
  return half;
}
