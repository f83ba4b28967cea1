//===- Format.cpp - NumPy-exact printing of arrays ------------------------===//
//
// A port of NumPy 1.24's `str(ndarray)` (numpy/core/arrayprint.py) with the
// default print options: `FloatingFormat.fillFormat` chooses positional or
// scientific notation and the common padding from every value that will be
// shown, `_formatArray` nests brackets, wraps rows at 75 columns and inserts
// `...` past 1000 elements, and 0-d arrays print like NumPy scalars. Names
// and structure follow the Python so that the two can be compared line by
// line; the Dragon4 digit generation is in FloatFormat.cpp.
//
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"
#include "pcc/ArrayIO/ArrayIO.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace pcc::arrayio {

using detail::FloatParts;
using detail::formatPositional;
using detail::formatScientific;
using detail::Trim;

namespace {

/// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 75;

uint64_t loadBits(const uint8_t *p, size_t size) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

int64_t loadInt(const uint8_t *p, size_t size) {
  uint64_t v = loadBits(p, size);
  unsigned shift = unsigned(64 - 8 * size);
  // Sign-extend from the element's width.
  return int64_t(v << shift) >> shift;
}

FloatParts partsOf(DType dtype, uint64_t bits) {
  switch (dtype) {
  case DType::F16:
    return detail::decomposeFloat(bits, 5, 10);
  case DType::BF16:
    return detail::decomposeFloat(bits, 8, 7);
  case DType::F32:
    return detail::decomposeFloat(bits, 8, 23);
  default:
    return detail::decomposeFloat(bits, 11, 52);
  }
}

double toDouble(DType dtype, uint64_t bits) {
  switch (dtype) {
  case DType::F16:
    return halfToFloat(uint16_t(bits));
  case DType::BF16:
    return bfloat16ToFloat(uint16_t(bits));
  case DType::F32: {
    uint32_t b = uint32_t(bits);
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  }
}

/// Rounds a positive double to the precision of `dtype` (to nearest even,
/// overflowing to infinity), as NumPy's arithmetic in that type would.
/// Rounding the correctly rounded double quotient again gives the correctly
/// rounded quotient in the narrower type, since 53 >= 2 * 24 + 2.
double roundToDType(DType dtype, double x) {
  int bits;
  double maxFinite;
  switch (dtype) {
  case DType::F16:
    bits = 11;
    maxFinite = 65504.0;
    break;
  case DType::BF16:
    bits = 8;
    maxFinite = 3.3895313892515355e38;
    break;
  case DType::F32:
    bits = 24;
    maxFinite = 3.4028234663852886e38;
    break;
  default:
    return x;
  }
  if (!std::isfinite(x) || x == 0)
    return x;
  int e;
  double m = std::frexp(x, &e);
  double r = std::ldexp(std::nearbyint(std::ldexp(m, bits)), e - bits);
  return r > maxFinite ? std::numeric_limits<double>::infinity() : r;
}

/// NumPy's FloatingFormat with floatmode 'maxprec', sign '-', suppress off.
class FloatingFormat {
public:
  FloatingFormat(DType dtype, const std::vector<uint64_t> &values)
      : dtype(dtype) {
    fillFormat(values);
  }

  std::string operator()(uint64_t bits) const {
    FloatParts p = partsOf(dtype, bits);
    if (p.isNan || p.isInf) {
      std::string ret = p.isNan ? "nan" : (p.negative ? "-inf" : "inf");
      int pad = padLeft + padRight + 1 - int(ret.size());
      return std::string(size_t(std::max(pad, 0)), ' ') + ret;
    }
    if (expFormat)
      return formatScientific(p, precision, minDigits, trim, padLeft, expSize);
    return formatPositional(p, precision, minDigits, trim, padLeft, padRight);
  }

private:
  void fillFormat(const std::vector<uint64_t> &values) {
    std::vector<FloatParts> finite;
    bool hasNegInf = false;
    double maxVal = 0, minVal = std::numeric_limits<double>::infinity();
    for (uint64_t bits : values) {
      FloatParts p = partsOf(dtype, bits);
      if (p.isInf && p.negative)
        hasNegInf = true;
      if (p.isNan || p.isInf)
        continue;
      finite.push_back(p);
      double a = std::fabs(toDouble(dtype, bits));
      if (a != 0) {
        maxVal = std::max(maxVal, a);
        minVal = std::min(minVal, a);
      }
    }

    // NumPy compares the extremes with Python floats in double precision,
    // but divides them in the array's own type.
    if (maxVal != 0)
      expFormat = maxVal >= 1e8 || minVal < 0.0001 ||
                  roundToDType(dtype, maxVal / minVal) > 1000.0;

    if (finite.empty()) {
      padLeft = 0;
      padRight = 0;
      trim = Trim::Zeros;
      expSize = -1;
      minDigits = -1;
    } else if (expFormat) {
      size_t maxInt = 0, maxFrac = 0, maxExp = 0;
      for (const FloatParts &p : finite) {
        std::string s =
            formatScientific(p, kPrecision, -1, Trim::Zeros, -1, -1);
        size_t e = s.find('e');
        size_t dot = s.find('.');
        maxInt = std::max(maxInt, dot);
        maxFrac = std::max(maxFrac, e - dot - 1);
        maxExp = std::max(maxExp, s.size() - e - 1);
      }
      expSize = int(maxExp) - 1;
      trim = Trim::Keep;
      precision = int(maxFrac);
      minDigits = precision;
      padLeft = int(maxInt);
      padRight = expSize + 2 + precision;
    } else {
      size_t maxInt = 0, maxFrac = 0;
      for (const FloatParts &p : finite) {
        std::string s =
            formatPositional(p, kPrecision, -1, Trim::Zeros, -1, -1);
        size_t dot = s.find('.');
        maxInt = std::max(maxInt, dot);
        maxFrac = std::max(maxFrac, s.size() - dot - 1);
      }
      padLeft = int(maxInt);
      padRight = int(maxFrac);
      expSize = -1;
      trim = Trim::Zeros;
      minDigits = 0;
    }

    // Make room for "nan", "inf" and "-inf" in the column.
    if (finite.size() != values.size()) {
      int offset = padRight + 1;
      padLeft = std::max({padLeft, 3 - offset, 3 + int(hasNegInf) - offset});
    }
  }

  DType dtype;
  bool expFormat = false;
  int padLeft = 0, padRight = 0;
  int precision = kPrecision;
  int minDigits = -1;
  int expSize = -1;
  Trim trim = Trim::Zeros;
};

/// `str()` of a NumPy scalar, which is what a 0-d array prints as.
std::string formatScalar(DType dtype, const uint8_t *p) {
  size_t size = dtypeSize(dtype);
  if (dtype == DType::Bool)
    return p[0] ? "True" : "False";
  if (!isFloatingPoint(dtype))
    return std::to_string(loadInt(p, size));
  uint64_t bits = loadBits(p, size);
  FloatParts parts = partsOf(dtype, bits);
  if (parts.isNan)
    return "nan";
  if (parts.isInf)
    return parts.negative ? "-inf" : "inf";
  double a = std::fabs(toDouble(dtype, bits));
  if (a == 0 || (a >= 1e-4 && a < 1e16))
    return formatPositional(parts, -1, -1, Trim::LeaveOneZero, -1, -1);
  return formatScientific(parts, -1, -1, Trim::DptZeros, -1, -1);
}

std::string rstrip(const std::string &s) {
  size_t end = s.find_last_not_of(" \t\n");
  return end == std::string::npos ? std::string() : s.substr(0, end + 1);
}

/// `_formatArray` and its helpers for the default separator ' ' and
/// legacy=False.
class ArrayPrinter {
public:
  ArrayPrinter(const Array &a, bool summarize,
               std::function<std::string(const uint8_t *)> format)
      : a(a), summarize(summarize), format(std::move(format)),
        itemSize(dtypeSize(a.dtype)), strides(a.shape.size(), 1) {
    for (size_t i = a.shape.size(); i-- > 1;)
      strides[i - 1] = strides[i] * a.shape[i];
  }

  std::string print() { return recurse(0, 0, " ", kLineWidth); }

private:
  static void extendLine(std::string &s, std::string &line,
                         const std::string &word, int lineWidth,
                         const std::string &nextLinePrefix) {
    bool needsWrap = line.size() + word.size() > size_t(lineWidth);
    // Wrapping would not help a line that holds only the indentation.
    if (line.size() <= nextLinePrefix.size())
      needsWrap = false;
    if (needsWrap) {
      s += rstrip(line) + "\n";
      line = nextLinePrefix;
    }
    line += word;
  }

  std::string recurse(int64_t offset, size_t axis,
                      const std::string &hangingIndent, int currWidth) {
    size_t axesLeft = a.shape.size() - axis;
    if (axesLeft == 0)
      return format(a.data.data() + size_t(offset) * itemSize);

    // Nested rows align with the '[' just opened and end before its ']'.
    std::string nextHangingIndent = hangingIndent + " ";
    int nextWidth = currWidth - 1;
    int64_t len = a.shape[axis];
    int64_t stride = strides[axis];
    bool showSummary = summarize && 2 * kEdgeItems < len;
    int64_t leading = showSummary ? kEdgeItems : 0;
    int64_t trailing = showSummary ? kEdgeItems : len;

    std::string s;
    if (axesLeft == 1) {
      int elemWidth = currWidth - 1;
      std::string line = hangingIndent;
      for (int64_t i = 0; i < leading; ++i) {
        std::string word = recurse(offset + i * stride, axis + 1,
                                   nextHangingIndent, nextWidth);
        extendLine(s, line, word, elemWidth, hangingIndent);
        line += ' ';
      }
      if (showSummary) {
        extendLine(s, line, "...", elemWidth, hangingIndent);
        line += ' ';
      }
      for (int64_t i = trailing; i > 1; --i) {
        std::string word = recurse(offset + (len - i) * stride, axis + 1,
                                   nextHangingIndent, nextWidth);
        extendLine(s, line, word, elemWidth, hangingIndent);
        line += ' ';
      }
      std::string word = recurse(offset + (len - 1) * stride, axis + 1,
                                 nextHangingIndent, nextWidth);
      extendLine(s, line, word, elemWidth, hangingIndent);
      s += line;
    } else {
      // One blank line between 2-d blocks, two between 3-d blocks, ...
      std::string lineSep(axesLeft - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hangingIndent +
             recurse(offset + i * stride, axis + 1, nextHangingIndent,
                     nextWidth) +
             lineSep;
      if (showSummary)
        s += hangingIndent + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i)
        s += hangingIndent +
             recurse(offset + (len - i) * stride, axis + 1, nextHangingIndent,
                     nextWidth) +
             lineSep;
      s += hangingIndent + recurse(offset + (len - 1) * stride, axis + 1,
                                   nextHangingIndent, nextWidth);
    }
    return "[" + s.substr(hangingIndent.size()) + "]";
  }

  const Array &a;
  bool summarize;
  std::function<std::string(const uint8_t *)> format;
  size_t itemSize;
  std::vector<int64_t> strides;
};

/// The elements `_leading_trailing` keeps: on every axis longer than
/// 2 * edgeitems only the first and last edgeitems indices (when
/// summarising). These are exactly the elements printed, and the only ones
/// the column widths are computed from.
std::vector<const uint8_t *> shownElements(const Array &a, bool summarize) {
  size_t itemSize = dtypeSize(a.dtype);
  size_t rank = a.shape.size();
  std::vector<std::vector<int64_t>> indices(rank);
  std::vector<int64_t> strides(rank, 1);
  for (size_t i = rank; i-- > 1;)
    strides[i - 1] = strides[i] * a.shape[i];
  for (size_t axis = 0; axis < rank; ++axis) {
    int64_t len = a.shape[axis];
    if (summarize && len > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i)
        indices[axis].push_back(i);
      for (int64_t i = len - kEdgeItems; i < len; ++i)
        indices[axis].push_back(i);
    } else {
      for (int64_t i = 0; i < len; ++i)
        indices[axis].push_back(i);
    }
  }
  std::vector<const uint8_t *> out;
  std::function<void(size_t, int64_t)> walk = [&](size_t axis, int64_t offset) {
    if (axis == rank) {
      out.push_back(a.data.data() + size_t(offset) * itemSize);
      return;
    }
    for (int64_t i : indices[axis])
      walk(axis + 1, offset + i * strides[axis]);
  };
  walk(0, 0);
  return out;
}

/// Describes why `a` cannot be printed, or returns an empty string.
std::string checkArray(const Array &a) {
  int64_t count = 1;
  for (int64_t d : a.shape) {
    if (d < 0)
      return "<invalid array: negative dimension>";
    if (d != 0 && count > std::numeric_limits<int64_t>::max() / d)
      return "<invalid array: too many elements>";
    count *= d;
  }
  if (uint64_t(count) > std::numeric_limits<size_t>::max() / 8 ||
      a.data.size() != size_t(count) * dtypeSize(a.dtype))
    return "<invalid array: " + std::to_string(a.data.size()) +
           " bytes of data for " + std::to_string(count) + " " +
           dtypeName(a.dtype) + " elements>";
  return "";
}

} // namespace

std::string formatArray(const Array &a) {
  std::string invalid = checkArray(a);
  if (!invalid.empty())
    return invalid;
  int64_t count = a.numElements();
  if (a.shape.empty())
    return formatScalar(a.dtype, a.data.data());
  if (count == 0)
    return "[]";

  bool summarize = count > kThreshold;
  std::vector<const uint8_t *> shown = shownElements(a, summarize);
  size_t itemSize = dtypeSize(a.dtype);
  std::function<std::string(const uint8_t *)> format;

  if (a.dtype == DType::Bool) {
    format = [](const uint8_t *p) -> std::string {
      return p[0] ? " True" : "False";
    };
  } else if (isFloatingPoint(a.dtype)) {
    std::vector<uint64_t> values;
    values.reserve(shown.size());
    for (const uint8_t *p : shown)
      values.push_back(loadBits(p, itemSize));
    FloatingFormat ff(a.dtype, values);
    format = [ff, itemSize](const uint8_t *p) {
      return ff(loadBits(p, itemSize));
    };
  } else {
    int64_t maxV = std::numeric_limits<int64_t>::min();
    int64_t minV = std::numeric_limits<int64_t>::max();
    for (const uint8_t *p : shown) {
      int64_t v = loadInt(p, itemSize);
      maxV = std::max(maxV, v);
      minV = std::min(minV, v);
    }
    size_t width =
        std::max(std::to_string(maxV).size(), std::to_string(minV).size());
    format = [width, itemSize](const uint8_t *p) {
      std::string s = std::to_string(loadInt(p, itemSize));
      return std::string(width - std::min(width, s.size()), ' ') + s;
    };
  }
  return ArrayPrinter(a, summarize, std::move(format)).print();
}

} // namespace pcc::arrayio
