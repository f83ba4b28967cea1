//===- float16-convert.cpp - Driver for the Float16.h NumPy test ----------===//
//
// Converts a file of raw little-endian bit patterns with pcc's one f16/bf16
// implementation (include/pcc/Support/Float16.h) and writes the results as
// raw bit patterns, for test/Support/float16_oracle.py to compare with NumPy:
//
//   float16-convert MODE IN OUT
//
// MODE is f16-f32 or bf16-f32 (IN holds uint16, OUT receives uint32),
// f32-f16 or f32-bf16 (uint32 in, uint16 out), f32-bf16-truncsfbf2 or
// f64-bf16-truncdfbf2 (uint64 in): the runtime's __truncsfbf2 and
// __truncdfbf2, which generated code calls.
//
//===----------------------------------------------------------------------===//

#include "pcc/Support/Float16.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// lib/Runtime/Builtins.cpp. The x86-64 ABI returns a bfloat16 like a
// _Float16, in the low 16 bits of xmm0.
extern "C" _Float16 __truncsfbf2(float value);
extern "C" _Float16 __truncdfbf2(double value);

// The bit-pattern functions are usable in constant expressions.
static_assert(pcc::halfBitsToFloatBits(0x3c00) == 0x3f800000u);
static_assert(pcc::halfBitsToFloatBits(0x0001) == 0x33800000u);
static_assert(pcc::floatBitsToHalfBits(0x477ff000u) == 0x7c00u); // 65520
static_assert(pcc::floatBitsToHalfBits(0x33000000u) == 0x0000u); // 2^-25
static_assert(pcc::bf16BitsToFloatBits(0x3f80) == 0x3f800000u);
static_assert(pcc::floatBitsToBf16Bits(0x3f818000u) == 0x3f82u);
// 1 + 2^-8 + 2^-40 rounds to odd: 1 + 2^-8 and the sticky bit.
static_assert(pcc::doubleBitsToFloatBitsOdd(0x3ff0100000010000ull) ==
              0x3f808001u);

namespace {

template <typename T> bool readAll(const char *path, std::vector<T> &out) {
  std::FILE *f = std::fopen(path, "rb");
  if (!f)
    return false;
  std::vector<T> data;
  T buf[4096];
  size_t n;
  while ((n = std::fread(buf, sizeof(T), 4096, f)) > 0)
    data.insert(data.end(), buf, buf + n);
  bool ok = !std::ferror(f);
  std::fclose(f);
  out.swap(data);
  return ok;
}

template <typename T> bool writeAll(const char *path, const std::vector<T> &v) {
  std::FILE *f = std::fopen(path, "wb");
  if (!f)
    return false;
  bool ok = std::fwrite(v.data(), sizeof(T), v.size(), f) == v.size();
  return std::fclose(f) == 0 && ok;
}

template <typename In, typename Out, typename Fn>
int convert(const char *in, const char *out, Fn fn) {
  std::vector<In> src;
  if (!readAll(in, src)) {
    std::fprintf(stderr, "float16-convert: cannot read %s\n", in);
    return 1;
  }
  std::vector<Out> dst(src.size());
  for (size_t i = 0; i < src.size(); ++i)
    dst[i] = fn(src[i]);
  if (!writeAll(out, dst)) {
    std::fprintf(stderr, "float16-convert: cannot write %s\n", out);
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: float16-convert MODE IN OUT\n");
    return 2;
  }
  std::string mode = argv[1];
  const char *in = argv[2], *out = argv[3];
  // Through the float-typed functions, which wrap the bit-pattern ones.
  if (mode == "f16-f32")
    return convert<uint16_t, uint32_t>(in, out, [](uint16_t h) {
      return pcc::floatToBits(pcc::halfToFloat(h));
    });
  if (mode == "bf16-f32")
    return convert<uint16_t, uint32_t>(in, out, [](uint16_t b) {
      return pcc::floatToBits(pcc::bf16ToFloat(b));
    });
  if (mode == "f32-f16")
    return convert<uint32_t, uint16_t>(in, out, [](uint32_t x) {
      return pcc::floatToHalf(pcc::bitsToFloat(x));
    });
  if (mode == "f32-bf16")
    return convert<uint32_t, uint16_t>(in, out, [](uint32_t x) {
      return pcc::floatToBf16(pcc::bitsToFloat(x));
    });
  if (mode == "f32-bf16-truncsfbf2")
    return convert<uint32_t, uint16_t>(in, out, [](uint32_t x) {
      _Float16 r = __truncsfbf2(pcc::bitsToFloat(x));
      uint16_t bits;
      std::memcpy(&bits, &r, sizeof(bits));
      return bits;
    });
  if (mode == "f64-bf16-truncdfbf2")
    return convert<uint64_t, uint16_t>(in, out, [](uint64_t x) {
      double d;
      std::memcpy(&d, &x, sizeof(d));
      _Float16 r = __truncdfbf2(d);
      uint16_t bits;
      std::memcpy(&bits, &r, sizeof(bits));
      return bits;
    });
  std::fprintf(stderr, "float16-convert: unknown mode '%s'\n", mode.c_str());
  return 2;
}
