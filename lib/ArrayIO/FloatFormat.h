//===- FloatFormat.h - NumPy's Dragon4 float to text ------------*- C++ -*-===//
//
// Internal to PCCArrayIO. NumPy prints floats with its own port of Dragon4
// (numpy/core/src/multiarray/dragon4.c) rather than with the C library, and
// its results differ from other "shortest" printers in ways that show up in
// printed arrays: digits are cut off at a given number of fractional digits
// and then rounded, a minimum number of digits can be forced, and a value is
// printed with all of its integer digits even where fewer would identify it
// (float16 4112 prints as `4112.` in an array, `4110.0` as a scalar). These
// functions reimplement `format_float_positional` and
// `format_float_scientific` with `unique=True` and `fractional=True`, the
// only settings array printing uses, on exact big-integer arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_ARRAYIO_FLOATFORMAT_H
#define PCC_LIB_ARRAYIO_FLOATFORMAT_H

#include <cstdint>
#include <string>

namespace pcc::arrayio::detail {

/// An IEEE binary floating-point value taken apart: a finite value is
/// `mantissa * 2^exponent`, `mantissaBit` is the index of the highest set bit
/// of `mantissa`, and `unequalMargins` says that the next value below is
/// closer than the next value above (a power of two above the smallest
/// normal).
struct FloatParts {
  bool negative = false;
  bool isNan = false;
  bool isInf = false;
  uint64_t mantissa = 0;
  int32_t exponent = 0;
  uint32_t mantissaBit = 0;
  bool unequalMargins = false;
};

/// Splits the bit pattern of an IEEE format with `expBits` exponent bits and
/// `mantBits` stored mantissa bits (binary16: 5, 10; bfloat16: 8, 7).
FloatParts decomposeFloat(uint64_t bits, int expBits, int mantBits);

/// NumPy's trim modes, with their Python spellings.
enum class Trim {
  Keep,         ///< 'k': keep trailing zeros and the decimal point.
  Zeros,        ///< '.': trim trailing zeros, keep the decimal point.
  LeaveOneZero, ///< '0': trim trailing zeros but leave one (`1.0`).
  DptZeros,     ///< '-': trim trailing zeros and the decimal point.
};

/// `np.format_float_positional(v, precision, unique=True, fractional=True,
/// trim, sign=False, pad_left, pad_right, min_digits)`; -1 means None.
/// Infinities and NaNs print as `inf`, `-inf` and `nan`, unpadded.
std::string formatPositional(const FloatParts &v, int precision, int minDigits,
                             Trim trim, int padLeft, int padRight);

/// `np.format_float_scientific(v, precision, unique=True, trim, sign=False,
/// pad_left, exp_digits, min_digits)`; -1 means None.
std::string formatScientific(const FloatParts &v, int precision, int minDigits,
                             Trim trim, int padLeft, int expDigits);

} // namespace pcc::arrayio::detail

#endif // PCC_LIB_ARRAYIO_FLOATFORMAT_H
