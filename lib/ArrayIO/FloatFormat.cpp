//===- FloatFormat.cpp - NumPy's Dragon4 float to text --------------------===//
//
// The digit generator follows NumPy's Dragon4 (Steele & White / Burger &
// Dybvig with Ryan Juckett's refinements) decision for decision, because
// NumPy's output depends on its details: the inclusive margins for even
// mantissas, the cut-off digit with round-half-even on the remainder, the
// forced minimum digits, and the clamping of the first digit's exponent in
// fractional mode. The arithmetic itself only has to be exact, so it uses a
// small fixed-capacity big integer instead of NumPy's block-shifting tricks.
//
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace pcc::arrayio::detail {

namespace {

/// An unsigned integer of up to kMaxBlocks * 32 bits. The largest values
/// Dragon4 meets come from float64 subnormals: about 10^324 * 2^55, well
/// under 2^1200.
class BigInt {
public:
  static constexpr unsigned kMaxBlocks = 48;

  BigInt() = default;
  explicit BigInt(uint64_t v) {
    while (v) {
      blocks[length++] = uint32_t(v);
      v >>= 32;
    }
  }

  static BigInt pow2(unsigned n) {
    BigInt r(1);
    r.shiftLeft(n);
    return r;
  }

  void shiftLeft(unsigned n) {
    if (length == 0 || n == 0)
      return;
    unsigned whole = n / 32, bits = n % 32;
    unsigned newLength = length + whole + 1;
    assert(newLength <= kMaxBlocks && "BigInt overflow");
    // From the top down, so each source block is read before it is
    // overwritten.
    for (int i = int(newLength) - 1; i >= 0; --i) {
      int src = i - int(whole);
      uint64_t hi = (src >= 0 && src < int(length)) ? blocks[src] : 0;
      uint64_t lo =
          (src - 1 >= 0 && src - 1 < int(length)) ? blocks[src - 1] : 0;
      blocks[i] =
          bits ? uint32_t((hi << bits) | (lo >> (32 - bits))) : uint32_t(hi);
    }
    length = newLength;
    trim();
  }

  void multiply(uint32_t factor) {
    uint64_t carry = 0;
    for (unsigned i = 0; i < length; ++i) {
      uint64_t p = uint64_t(blocks[i]) * factor + carry;
      blocks[i] = uint32_t(p);
      carry = p >> 32;
    }
    if (carry) {
      assert(length < kMaxBlocks && "BigInt overflow");
      blocks[length++] = uint32_t(carry);
    }
  }

  void multiplyPow10(unsigned n) {
    static const uint32_t pow10[] = {1,         10,        100,     1000,
                                     10000,     100000,    1000000, 10000000,
                                     100000000, 1000000000};
    for (; n >= 9; n -= 9)
      multiply(pow10[9]);
    if (n)
      multiply(pow10[n]);
  }

  static int compare(const BigInt &a, const BigInt &b) {
    if (a.length != b.length)
      return a.length < b.length ? -1 : 1;
    for (int i = int(a.length) - 1; i >= 0; --i)
      if (a.blocks[i] != b.blocks[i])
        return a.blocks[i] < b.blocks[i] ? -1 : 1;
    return 0;
  }

  static BigInt add(const BigInt &a, const BigInt &b) {
    BigInt r;
    unsigned n = std::max(a.length, b.length);
    uint64_t carry = 0;
    for (unsigned i = 0; i < n; ++i) {
      uint64_t s = carry + (i < a.length ? a.blocks[i] : 0) +
                   (i < b.length ? b.blocks[i] : 0);
      r.blocks[i] = uint32_t(s);
      carry = s >> 32;
    }
    r.length = n;
    if (carry) {
      assert(n < kMaxBlocks && "BigInt overflow");
      r.blocks[r.length++] = uint32_t(carry);
    }
    return r;
  }

  /// this -= other; requires this >= other.
  void subtract(const BigInt &other) {
    int64_t borrow = 0;
    for (unsigned i = 0; i < length; ++i) {
      int64_t d = int64_t(blocks[i]) -
                  (i < other.length ? other.blocks[i] : 0) - borrow;
      borrow = d < 0;
      blocks[i] = uint32_t(d + (borrow << 32));
    }
    trim();
  }

  /// Replaces this by this mod divisor and returns this / divisor, which
  /// the callers guarantee to be below 10.
  uint32_t divideSmallQuotient(const BigInt &divisor) {
    uint32_t q = 0;
    while (compare(*this, divisor) >= 0) {
      subtract(divisor);
      ++q;
    }
    assert(q < 10 && "digit out of range");
    return q;
  }

private:
  void trim() {
    while (length && blocks[length - 1] == 0)
      --length;
  }

  uint32_t blocks[kMaxBlocks] = {};
  unsigned length = 0;
};

/// Digits of a value and the base-10 exponent of the first one.
struct Digits {
  std::string digits;
  int exponent = 0;
};

/// NumPy's repr buffer size bounds the digits Dragon4 may produce; it only
/// matters for absurd precisions but is kept for fidelity.
constexpr int kBufferSize = 16383;

/// NumPy's Dragon4 in DigitMode_Unique. `fraction` selects
/// CutoffMode_FractionLength (cut-offs count digits after the decimal
/// point) over CutoffMode_TotalLength (significant digits). `cutoffMax` stops
/// digit generation (then rounds); `cutoffMin` forces digits beyond the
/// shortest unique ones; -1 disables either.
Digits dragon4(const FloatParts &v, bool fraction, int cutoffMax,
               int cutoffMin) {
  Digits out;
  if (v.mantissa == 0) {
    out.digits = "0";
    return out;
  }
  // Ties with a neighbour's rounding interval go to the even mantissa, so
  // the boundaries belong to this value exactly when its mantissa is even.
  bool isEven = (v.mantissa & 1) == 0;

  // value = scaledValue / scale; the margins are half the distance to the
  // neighbouring floats, scaled the same way.
  BigInt scale, scaledValue(v.mantissa), marginLow;
  int exponent = v.exponent;
  unsigned extra = v.unequalMargins ? 2 : 1;
  if (exponent > 0) {
    scaledValue.shiftLeft(unsigned(exponent) + extra);
    scale = BigInt(uint64_t(1) << extra);
    marginLow = BigInt::pow2(unsigned(exponent));
  } else {
    scaledValue.shiftLeft(extra);
    scale = BigInt::pow2(unsigned(-exponent) + extra);
    marginLow = BigInt(1);
  }
  auto marginHigh = [&]() {
    if (!v.unequalMargins)
      return marginLow;
    BigInt h = marginLow;
    h.shiftLeft(1);
    return h;
  };

  // Estimate floor(log10(v)) + 1, possibly one too low, as NumPy does: the
  // estimate decides where fractional clamping applies.
  const double log10_2 = 0.30102999566398119521373889472449;
  int digitExponent =
      int(std::ceil(double(int(v.mantissaBit) + exponent) * log10_2 - 0.69));
  if (cutoffMax >= 0 && fraction && digitExponent <= -cutoffMax)
    digitExponent = -cutoffMax + 1;

  if (digitExponent > 0) {
    scale.multiplyPow10(unsigned(digitExponent));
  } else if (digitExponent < 0) {
    scaledValue.multiplyPow10(unsigned(-digitExponent));
    marginLow.multiplyPow10(unsigned(-digitExponent));
  }
  if (BigInt::compare(scaledValue, scale) >= 0) {
    ++digitExponent;
  } else {
    scaledValue.multiply(10);
    marginLow.multiply(10);
  }

  int cutoffMaxExponent = digitExponent - kBufferSize;
  if (cutoffMax >= 0) {
    int desired = fraction ? -cutoffMax : digitExponent - cutoffMax;
    cutoffMaxExponent = std::max(cutoffMaxExponent, desired);
  }
  int cutoffMinExponent = digitExponent;
  if (cutoffMin >= 0) {
    int desired = fraction ? -cutoffMin : digitExponent - cutoffMin;
    cutoffMinExponent = std::min(cutoffMinExponent, desired);
  }
  out.exponent = digitExponent - 1;

  bool low = false, high = false;
  uint32_t digit = 0;
  for (;;) {
    --digitExponent;
    digit = scaledValue.divideSmallQuotient(scale);
    BigInt valueHigh = BigInt::add(scaledValue, marginHigh());
    int cmpLow = BigInt::compare(scaledValue, marginLow);
    low = isEven ? cmpLow <= 0 : cmpLow < 0;
    int cmpHigh = BigInt::compare(valueHigh, scale);
    high = isEven ? cmpHigh >= 0 : cmpHigh > 0;
    if (((low || high) && digitExponent <= cutoffMinExponent) ||
        digitExponent == cutoffMaxExponent)
      break;
    out.digits += char('0' + digit);
    scaledValue.multiply(10);
    marginLow.multiply(10);
  }

  // Round the last digit: down if only the lower neighbour is close, else to
  // the nearer of digit and digit+1, ties to the even digit.
  bool roundDown = low;
  if (low == high) {
    BigInt twice = scaledValue;
    twice.shiftLeft(1);
    int cmp = BigInt::compare(twice, scale);
    roundDown = cmp < 0 || (cmp == 0 && (digit & 1) == 0);
  }
  if (roundDown) {
    out.digits += char('0' + digit);
  } else if (digit < 9) {
    out.digits += char('0' + digit + 1);
  } else {
    // Carry through trailing nines; all nines become a 1 one place up.
    while (!out.digits.empty() && out.digits.back() == '9')
      out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

std::string specialValue(const FloatParts &v) {
  if (v.isNan)
    return "nan";
  return v.negative ? "-inf" : "inf";
}

} // namespace

FloatParts decomposeFloat(uint64_t bits, int expBits, int mantBits) {
  FloatParts p;
  uint64_t mantMask = (uint64_t(1) << mantBits) - 1;
  uint64_t expMask = (uint64_t(1) << expBits) - 1;
  uint64_t mant = bits & mantMask;
  uint64_t exp = (bits >> mantBits) & expMask;
  p.negative = (bits >> (mantBits + expBits)) & 1;
  int bias = int(expMask >> 1);
  if (exp == expMask) {
    p.isNan = mant != 0;
    p.isInf = mant == 0;
    return p;
  }
  if (exp != 0) {
    p.mantissa = (uint64_t(1) << mantBits) | mant;
    p.exponent = int(exp) - bias - mantBits;
    p.mantissaBit = uint32_t(mantBits);
    p.unequalMargins = exp != 1 && mant == 0;
  } else {
    p.mantissa = mant;
    p.exponent = 1 - bias - mantBits;
    uint32_t bit = 0;
    while (mant >> (bit + 1))
      ++bit;
    p.mantissaBit = bit;
    p.unequalMargins = false;
  }
  return p;
}

std::string formatPositional(const FloatParts &v, int precision, int minDigits,
                             Trim trim, int padLeft, int padRight) {
  if (v.isNan || v.isInf)
    return specialValue(v);
  std::string out;
  int hasSign = v.negative ? 1 : 0;
  if (v.negative)
    out += '-';
  Digits d = dragon4(v, /*fraction=*/true, precision, minDigits);
  int numDigits = int(d.digits.size());
  int numWhole = 1, numFrac = 0;
  if (d.exponent >= 0) {
    numWhole = d.exponent + 1;
    if (numDigits <= numWhole) {
      out += d.digits;
      out.append(size_t(numWhole - numDigits), '0');
    } else {
      out.append(d.digits, 0, size_t(numWhole));
      out += '.';
      out.append(d.digits, size_t(numWhole), std::string::npos);
      numFrac = numDigits - numWhole;
    }
  } else {
    int zeros = -(d.exponent + 1);
    out += "0.";
    out.append(size_t(zeros), '0');
    out += d.digits;
    numFrac = zeros + numDigits;
  }
  if (trim != Trim::DptZeros && numFrac == 0)
    out += '.';

  int desiredFrac = std::max(minDigits, 0);
  if (trim == Trim::LeaveOneZero) {
    if (numFrac == 0) {
      out += '0';
      ++numFrac;
    }
  } else if (trim == Trim::Keep && desiredFrac > numFrac) {
    out.append(size_t(desiredFrac - numFrac), '0');
    numFrac = desiredFrac;
  }
  if (trim != Trim::Keep && numFrac > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --numFrac;
    }
    if (out.back() == '.') {
      if (trim == Trim::LeaveOneZero) {
        out += '0';
        ++numFrac;
      } else if (trim == Trim::DptZeros) {
        out.pop_back();
      }
    }
  }

  if (padRight >= numFrac) {
    if (trim == Trim::DptZeros && numFrac == 0)
      out += ' ';
    out.append(size_t(padRight - numFrac), ' ');
  }
  if (padLeft > numWhole + hasSign)
    out.insert(0, size_t(padLeft - numWhole - hasSign), ' ');
  return out;
}

std::string formatScientific(const FloatParts &v, int precision, int minDigits,
                             Trim trim, int padLeft, int expDigits) {
  if (v.isNan || v.isInf)
    return specialValue(v);
  std::string out;
  int leftChars = 1 + (v.negative ? 1 : 0);
  if (padLeft > leftChars)
    out.append(size_t(padLeft - leftChars), ' ');
  if (v.negative)
    out += '-';
  Digits d = dragon4(v, /*fraction=*/false, precision < 0 ? -1 : precision + 1,
                     minDigits < 0 ? -1 : minDigits + 1);
  out += d.digits[0];
  int numFrac = int(d.digits.size()) - 1;
  if (numFrac > 0) {
    out += '.';
    out.append(d.digits, 1, std::string::npos);
  }
  if (trim != Trim::DptZeros && numFrac == 0)
    out += '.';

  int addDigits = std::max(minDigits, 0);
  if (trim == Trim::LeaveOneZero) {
    if (numFrac == 0) {
      out += '0';
      ++numFrac;
    }
  } else if (trim == Trim::Keep && addDigits > numFrac) {
    out.append(size_t(addDigits - numFrac), '0');
    numFrac = addDigits;
  }
  if (trim != Trim::Keep && numFrac > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --numFrac;
    }
    if (trim == Trim::LeaveOneZero && out.back() == '.') {
      out += '0';
      ++numFrac;
    }
  }

  int exp = d.exponent;
  out += 'e';
  out += exp >= 0 ? '+' : '-';
  std::string expText = std::to_string(exp >= 0 ? exp : -exp);
  int width = expDigits < 0 ? 2 : std::min(expDigits, 5);
  if (int(expText.size()) < width)
    out.append(size_t(width) - expText.size(), '0');
  out += expText;
  return out;
}

} // namespace pcc::arrayio::detail
