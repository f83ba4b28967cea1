//===- CollectiveReference.h - Serial reference for collective tests -*- C++
//-*-===//
//
// A plain serial reference for all-reduce and all-gather, computed
// independently of the runtime: groups are found by brute force over the
// grid, and 16-bit floats are decoded with ldexp and rounded by searching the
// table of all finite values, so a bug in the runtime's bit tricks cannot
// hide in a shared helper. Shared by the host collectives' tests and the
// cuda platform's GPU tests, with the cases and random inputs they both use.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H
#define PCC_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H

#include "pcc/Runtime/pcc_runtime.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace pcc::test {

using Bytes = std::vector<uint8_t>;
constexpr int32_t kGather = -1; ///< "Reduction" meaning all_gather.

const int32_t kAllTypes[] = {PCC_I8,  PCC_I16,  PCC_I32, PCC_I64,
                             PCC_F16, PCC_BF16, PCC_F32, PCC_F64};
const int32_t kFloatTypes[] = {PCC_F16, PCC_BF16, PCC_F32, PCC_F64};
const int32_t kAllOps[] = {PCC_SUM, PCC_MAX, PCC_MIN, kGather};

inline int64_t sizeOf(int32_t dtype) {
  switch (dtype) {
  case PCC_I8:
  case PCC_I1:
    return 1;
  case PCC_I16:
  case PCC_F16:
  case PCC_BF16:
    return 2;
  case PCC_I32:
  case PCC_F32:
    return 4;
  default:
    return 8;
  }
}

inline bool isFloat(int32_t dtype) {
  return dtype == PCC_F16 || dtype == PCC_BF16 || dtype == PCC_F32 ||
         dtype == PCC_F64;
}

inline const char *typeName(int32_t dtype) {
  static const char *names[] = {"i8",   "i16", "i32", "i64", "f16",
                                "bf16", "f32", "f64", "i1"};
  return names[dtype];
}

inline const char *opName(int32_t op) {
  static const char *names[] = {"sum", "max", "min"};
  return op == kGather ? "gather" : names[op];
}

//===----------------------------------------------------------------------===//
// Reference 16-bit floats
//===----------------------------------------------------------------------===//

inline double decodeF16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 31  ? (m ? NAN : INFINITY)
             : e == 0 ? std::ldexp(m, -24)
                      : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

inline double decodeBF16(uint16_t b) {
  int e = (b >> 7) & 255, m = b & 127;
  double v = e == 255 ? (m ? NAN : INFINITY)
             : e == 0 ? std::ldexp(m, -133)
                      : std::ldexp(128 + m, e - 134);
  return (b & 0x8000) ? -v : v;
}

/// Rounds to nearest even by searching the increasing table of the finite
/// non-negative values of a 16-bit format (encodings 0..maxFinite).
class Rounder {
public:
  Rounder(double (*decode)(uint16_t), uint16_t maxFinite)
      : maxFinite(maxFinite) {
    for (uint32_t k = 0; k <= maxFinite; ++k)
      values.push_back(decode(uint16_t(k)));
  }

  uint16_t round(double x) const {
    if (std::isnan(x))
      return 0x7fff;
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    double a = std::fabs(x);
    double top = values[maxFinite], below = values[maxFinite - 1];
    if (a >= top + (top - below) / 2)
      return uint16_t(sign | (maxFinite + 1)); // Infinity.
    size_t k = std::upper_bound(values.begin(), values.end(), a) -
               values.begin() - 1; // Largest value <= a.
    if (k == maxFinite)
      return uint16_t(sign | k);
    double down = a - values[k], up = values[k + 1] - a;
    if (up < down || (up == down && (k & 1)))
      ++k;
    return uint16_t(sign | k);
  }

private:
  uint16_t maxFinite;
  std::vector<double> values;
};

inline const Rounder &f16Rounder() {
  static const Rounder r(decodeF16, 0x7bff);
  return r;
}

inline const Rounder &bf16Rounder() {
  static const Rounder r(decodeBF16, 0x7f7f);
  return r;
}

//===----------------------------------------------------------------------===//
// Elements as values
//===----------------------------------------------------------------------===//

inline uint64_t loadBits(const Bytes &buf, int32_t dtype, int64_t i) {
  uint64_t bits = 0;
  std::memcpy(&bits, buf.data() + i * sizeOf(dtype), size_t(sizeOf(dtype)));
  return bits;
}

inline void storeBits(Bytes &buf, int32_t dtype, int64_t i, uint64_t bits) {
  std::memcpy(buf.data() + i * sizeOf(dtype), &bits, size_t(sizeOf(dtype)));
}

inline int64_t asSigned(uint64_t bits, int32_t dtype) {
  int shift = 64 - 8 * int(sizeOf(dtype));
  return int64_t(bits << shift) >> shift;
}

/// Exact value of a floating-point element.
inline double asDouble(uint64_t bits, int32_t dtype) {
  switch (dtype) {
  case PCC_F16:
    return decodeF16(uint16_t(bits));
  case PCC_BF16:
    return decodeBF16(uint16_t(bits));
  case PCC_F32: {
    float f;
    uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  default: {
    double f;
    std::memcpy(&f, &bits, 8);
    return f;
  }
  }
}

inline uint64_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

inline uint64_t doubleBits(double f) {
  uint64_t b;
  std::memcpy(&b, &f, 8);
  return b;
}

/// Reference reduction of one element over `vals` (bits, in group-rank
/// order): sums accumulate in the type's own precision (f32 for f16/bf16,
/// rounded once at the end), max/min return NaN if any input is NaN.
inline uint64_t reduceRef(int32_t op, int32_t dtype,
                          const std::vector<uint64_t> &v) {
  if (!isFloat(dtype)) {
    if (op == PCC_SUM) {
      uint64_t acc = 0;
      for (uint64_t x : v)
        acc += x;
      return acc;
    }
    int64_t acc = asSigned(v[0], dtype);
    for (uint64_t x : v)
      acc = op == PCC_MAX ? std::max(acc, asSigned(x, dtype))
                          : std::min(acc, asSigned(x, dtype));
    return uint64_t(acc);
  }
  if (op == PCC_SUM) {
    if (dtype == PCC_F64) {
      double acc = asDouble(v[0], dtype);
      for (size_t j = 1; j < v.size(); ++j)
        acc += asDouble(v[j], dtype);
      return doubleBits(acc);
    }
    float acc = float(asDouble(v[0], dtype));
    for (size_t j = 1; j < v.size(); ++j)
      acc += float(asDouble(v[j], dtype));
    if (dtype == PCC_F16)
      return f16Rounder().round(acc);
    if (dtype == PCC_BF16)
      return bf16Rounder().round(acc);
    return floatBits(acc);
  }
  size_t best = 0;
  for (size_t j = 0; j < v.size(); ++j) {
    double x = asDouble(v[j], dtype);
    if (std::isnan(x))
      return v[j];
    double b = asDouble(v[best], dtype);
    if (op == PCC_MAX ? x > b : x < b)
      best = j;
  }
  return v[best];
}

/// Whether `got` is an acceptable result where `want` is the reference: the
/// same bits, except that any NaN matches any NaN and max/min may return
/// either zero when +0 and -0 tie.
inline bool sameElement(int32_t op, int32_t dtype, uint64_t got,
                        uint64_t want) {
  uint64_t mask = sizeOf(dtype) == 8 ? ~uint64_t(0)
                                     : (uint64_t(1) << (8 * sizeOf(dtype))) - 1;
  got &= mask;
  want &= mask;
  if (!isFloat(dtype) || op == kGather)
    return got == want;
  double g = asDouble(got, dtype), w = asDouble(want, dtype);
  if (std::isnan(w) || std::isnan(g))
    return std::isnan(w) && std::isnan(g);
  return op == PCC_SUM ? got == want : g == w;
}

//===----------------------------------------------------------------------===//
// Running a case
//===----------------------------------------------------------------------===//

struct Case {
  std::vector<int64_t> dims;
  uint64_t mask = 1;
  int32_t dtype = PCC_F32;
  int32_t op = PCC_SUM;
  int64_t count = 1;
  bool inPlace = false;
  double nanRate = 0; ///< Fraction of float inputs replaced by NaN.
  uint64_t seed = 1;

  int64_t numDevices() const {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  }

  std::string str() const {
    std::ostringstream os;
    os << opName(op) << " " << typeName(dtype) << " x" << count << " grid";
    for (int64_t d : dims)
      os << " " << d;
    os << " mask " << mask << (inPlace ? " in-place" : "")
       << (nanRate > 0 ? " with NaN" : "");
    return os.str();
  }
};

/// The cases that check every collective on grid `dims` / `mask`: for each
/// count, every op on every type, reductions also in place, and the i1
/// all-gather; seeded 1, 2, ... in that order.
inline std::vector<Case> allOpsAndTypes(const std::vector<int64_t> &dims,
                                        uint64_t mask,
                                        const std::vector<int64_t> &counts) {
  std::vector<Case> cases;
  auto add = [&](int32_t op, int32_t dtype, int64_t count, bool inPlace) {
    Case c;
    c.dims = dims;
    c.mask = mask;
    c.dtype = dtype;
    c.op = op;
    c.count = count;
    c.inPlace = inPlace;
    c.seed = cases.size() + 1;
    cases.push_back(c);
  };
  for (int64_t count : counts) {
    for (int32_t op : kAllOps)
      for (int32_t dtype : kAllTypes)
        for (bool inPlace : {false, true})
          if (!inPlace || op != kGather)
            add(op, dtype, count, inPlace);
    add(kGather, PCC_I1, count, false);
  }
  return cases;
}

/// Group of every device, by brute force: the devices whose coordinates
/// agree on every axis outside the mask, in increasing linear index (which
/// is row-major order over the participating coordinates).
inline std::vector<std::vector<int64_t>> groupsOf(const Case &c) {
  int64_t n = c.numDevices();
  auto key = [&](int64_t dev) {
    std::vector<int64_t> k;
    for (int64_t a = int64_t(c.dims.size()) - 1; a >= 0; --a) {
      int64_t coord = dev % c.dims[a];
      dev /= c.dims[a];
      k.push_back(((c.mask >> a) & 1) ? -1 : coord);
    }
    return k;
  };
  std::vector<std::vector<int64_t>> groups(n);
  for (int64_t d = 0; d < n; ++d)
    for (int64_t e = 0; e < n; ++e)
      if (key(d) == key(e))
        groups[d].push_back(e);
  return groups;
}

inline Bytes randomInput(const Case &c, std::mt19937_64 &rng) {
  Bytes buf(size_t(c.count * sizeOf(c.dtype)));
  for (int64_t i = 0; i < c.count; ++i) {
    uint64_t bits = rng();
    // Floats get random signs and mantissas (so that sums round and their
    // order matters) and a limited exponent range (so that they rarely
    // overflow or cancel completely).
    switch (c.dtype) {
    case PCC_I1:
      bits &= 1;
      break;
    case PCC_F16:
      // Mostly |x| < 2 (exponent <= 15), one in 16 up to 65504.
      bits &= 0xbfff;
      if ((bits >> 16) % 16 == 0)
        bits ^= 0x4000 | ((bits >> 20) & 0x3800);
      if (((bits >> 10) & 31) == 31)
        bits &= ~uint64_t(0x0400);
      break;
    case PCC_BF16:
      bits = (bits & 0x807f) | ((120 + (bits >> 16) % 16) << 7);
      break;
    case PCC_F32:
      bits = (bits & 0x807fffff) | ((120 + (bits >> 32) % 16) << 23);
      break;
    case PCC_F64:
      bits = (bits & 0x800fffffffffffff) | ((1016 + rng() % 16) << 52);
      break;
    default:
      break;
    }
    if (c.nanRate > 0 && isFloat(c.dtype) &&
        double(rng() >> 11) * 0x1p-53 < c.nanRate)
      bits = c.dtype == PCC_F16    ? 0x7e00 | (rng() & 0x8000)
             : c.dtype == PCC_BF16 ? 0x7fc0 | (rng() & 0x8000)
             : c.dtype == PCC_F32  ? floatBits(NAN)
                                   : doubleBits(-NAN);
    storeBits(buf, c.dtype, i, bits);
  }
  return buf;
}

/// One random input per device of `c`, from `c.seed`.
inline std::vector<Bytes> randomInputs(const Case &c) {
  std::mt19937_64 rng(c.seed);
  std::vector<Bytes> inputs;
  for (int64_t d = 0; d < c.numDevices(); ++d)
    inputs.push_back(randomInput(c, rng));
  return inputs;
}

/// The inputs and outputs of every device in a run of a case.
struct Outcome {
  std::vector<Bytes> inputs, outputs;
};

/// Compares every device's output with the serial reference, computed once
/// per group.
inline testing::AssertionResult checkRun(const Case &c, const Outcome &r) {
  auto groups = groupsOf(c);
  std::map<int64_t, Bytes> refs; // By the group's first member.
  std::vector<uint64_t> vals;
  for (int64_t d = 0; d < c.numDevices(); ++d) {
    const std::vector<int64_t> &g = groups[d];
    int64_t outElems = c.count * (c.op == kGather ? int64_t(g.size()) : 1);
    auto [it, isNew] = refs.try_emplace(g[0]);
    Bytes &ref = it->second;
    if (isNew) {
      ref.resize(size_t(outElems * sizeOf(c.dtype)));
      for (int64_t i = 0; i < c.count; ++i) {
        vals.clear();
        for (int64_t m : g)
          vals.push_back(loadBits(r.inputs[m], c.dtype, i));
        if (c.op != kGather)
          storeBits(ref, c.dtype, i, reduceRef(c.op, c.dtype, vals));
        else
          for (size_t j = 0; j < g.size(); ++j)
            storeBits(ref, c.dtype, int64_t(j) * c.count + i, vals[j]);
      }
    }
    if (r.outputs[d].size() != ref.size())
      return testing::AssertionFailure()
             << c.str() << ": device " << d << ": wrong output size";
    for (int64_t at = 0; at < outElems; ++at) {
      uint64_t got = loadBits(r.outputs[d], c.dtype, at);
      uint64_t want = loadBits(ref, c.dtype, at);
      if (!sameElement(c.op, c.dtype, got, want))
        return testing::AssertionFailure()
               << c.str() << ": device " << d << " element " << at << ": got 0x"
               << std::hex << got << ", want 0x" << want;
    }
  }
  return testing::AssertionSuccess();
}

} // namespace pcc::test

#endif // PCC_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H
