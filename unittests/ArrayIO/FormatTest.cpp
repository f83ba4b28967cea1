//===- FormatTest.cpp - Tests of NumPy-exact array printing ---------------===//
//
// Hand-checked cases for formatArray: every expected string below is what
// NumPy 1.24's str() prints for the same array. They pin down one rule each
// (notation switching, padding, wrapping, summarisation, 0-d scalars, the
// float16 quirks); the broad comparison with NumPy itself is
// test/ArrayIO/numpy-print.test. Also tests the Dragon4 layer directly and
// the 16-bit float conversions exhaustively.
//
//===----------------------------------------------------------------------===//

#include "FloatFormat.h"
#include "pcc/ArrayIO/ArrayIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace pcc::arrayio;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

template <typename T>
Array make(DType dtype, std::vector<int64_t> shape,
           const std::vector<T> &values) {
  Array a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

Array f64(std::vector<int64_t> shape, const std::vector<double> &values) {
  return make(DType::F64, std::move(shape), values);
}

Array f32(std::vector<int64_t> shape, const std::vector<double> &values) {
  std::vector<float> v(values.begin(), values.end());
  return make(DType::F32, std::move(shape), v);
}

Array f16(std::vector<int64_t> shape, const std::vector<double> &values) {
  std::vector<uint16_t> v;
  for (double x : values)
    v.push_back(floatToHalf(float(x)));
  return make(DType::F16, std::move(shape), v);
}

Array bf16(std::vector<int64_t> shape, const std::vector<double> &values) {
  std::vector<uint16_t> v;
  for (double x : values)
    v.push_back(floatToBFloat16(float(x)));
  return make(DType::BF16, std::move(shape), v);
}

Array i64(std::vector<int64_t> shape, const std::vector<int64_t> &values) {
  return make(DType::I64, std::move(shape), values);
}

/// np.arange(n) as float64 in the given shape, times `scale`.
Array arange64(std::vector<int64_t> shape, double scale = 1) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<double> v(size_t(n), 0.0);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = double(i) * scale;
  return f64(std::move(shape), v);
}

/// np.arange(n) of an integer type in the given shape, times `scale`.
Array arangeInt(DType dtype, std::vector<int64_t> shape, int64_t scale = 1) {
  Array a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  size_t n = size_t(a.numElements()), size = dtypeSize(dtype);
  a.data.resize(n * size);
  for (size_t i = 0; i < n; ++i) {
    int64_t v = int64_t(i) * scale;
    // The low bytes of a little-endian int64 are the narrower integer.
    std::memcpy(a.data.data() + i * size, &v, size);
  }
  return a;
}

TEST(FormatArray, FloatNotation) {
  EXPECT_EQ(formatArray(f64({2}, {1e-5, 1e10})), "[1.e-05 1.e+10]");
  EXPECT_EQ(formatArray(f64({2}, {0.1, 0.2})), "[0.1 0.2]");
  EXPECT_EQ(formatArray(f64({2}, {1, 2})), "[1. 2.]");
  EXPECT_EQ(formatArray(f64({2}, {1.5, -2})), "[ 1.5 -2. ]");
  EXPECT_EQ(formatArray(f64({2}, {0.0, -0.0})), "[ 0. -0.]");
  EXPECT_EQ(formatArray(f64({5}, {1, 0.1, 0.01, 0.001, 1e-4})),
            "[1.e+00 1.e-01 1.e-02 1.e-03 1.e-04]");
  EXPECT_EQ(formatArray(f64({2}, {123456789.0, 1})),
            "[1.23456789e+08 1.00000000e+00]");
  // Positional notation keeps at most 8 fractional digits.
  EXPECT_EQ(formatArray(f64({3}, {1.0 / 3, 2.0 / 3, 0.1 + 0.2})),
            "[0.33333333 0.66666667 0.3       ]");
}

TEST(FormatArray, NonFinite) {
  EXPECT_EQ(formatArray(f64({2}, {kNaN, kInf})), "[nan inf]");
  EXPECT_EQ(formatArray(f64({2, 2}, {1e-5, 1, kNaN, -kInf})),
            "[[1.e-05 1.e+00]\n [   nan   -inf]]");
  EXPECT_EQ(formatArray(f64({3}, {kNaN, kInf, -kInf})), "[ nan  inf -inf]");
  EXPECT_EQ(formatArray(f64({2}, {-kNaN, 1.5})), "[nan 1.5]");
}

TEST(FormatArray, Integers) {
  EXPECT_EQ(formatArray(make<int8_t>(DType::I8, {3}, {-128, 127, 0})),
            "[-128  127    0]");
  EXPECT_EQ(formatArray(i64({2}, {std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max()})),
            "[-9223372036854775808  9223372036854775807]");
  EXPECT_EQ(formatArray(make<int16_t>(DType::I16, {4}, {66, 66, 66, 66})),
            "[66 66 66 66]");
}

TEST(FormatArray, Bool) {
  EXPECT_EQ(formatArray(make<uint8_t>(DType::Bool, {2, 2}, {1, 0, 0, 1})),
            "[[ True False]\n [False  True]]");
  EXPECT_EQ(formatArray(make<uint8_t>(DType::Bool, {}, {1})), "True");
  EXPECT_EQ(formatArray(make<uint8_t>(DType::Bool, {}, {0})), "False");
}

TEST(FormatArray, ZeroDimensional) {
  EXPECT_EQ(formatArray(i64({}, {5})), "5");
  EXPECT_EQ(formatArray(i64({}, {std::numeric_limits<int64_t>::min()})),
            "-9223372036854775808");
  EXPECT_EQ(formatArray(make<int8_t>(DType::I8, {}, {-7})), "-7");
  EXPECT_EQ(formatArray(f64({}, {0.1})), "0.1");
  EXPECT_EQ(formatArray(f64({}, {1e-5})), "1e-05");
  EXPECT_EQ(formatArray(f64({}, {1e16})), "1e+16");
  EXPECT_EQ(formatArray(f64({}, {1e15})), "1000000000000000.0");
  EXPECT_EQ(formatArray(f64({}, {-0.0})), "-0.0");
  EXPECT_EQ(formatArray(f64({}, {kNaN})), "nan");
  EXPECT_EQ(formatArray(f64({}, {-kInf})), "-inf");
  EXPECT_EQ(formatArray(f32({}, {0.1})), "0.1");
  EXPECT_EQ(formatArray(f32({}, {3e10})), "30000000000.0");
  // A scalar may drop integer digits that an array element keeps.
  EXPECT_EQ(formatArray(f16({}, {4112})), "4110.0");
  EXPECT_EQ(formatArray(f16({}, {1e-5})), "1e-05");
}

TEST(FormatArray, Float16) {
  EXPECT_EQ(formatArray(f16({2}, {4112, 4108})), "[4112. 4108.]");
  // max/min is computed in float16: 100 / 0.09998 rounds to exactly 1000.
  EXPECT_EQ(formatArray(f16({2}, {0.1, 100})), "[  0.1 100. ]");
  EXPECT_EQ(formatArray(f16({2}, {1e-4, 0.01})), "[0.0001 0.01  ]");
  EXPECT_EQ(formatArray(f16({1}, {65504})), "[65504.]");
}

TEST(FormatArray, Float32Thresholds) {
  // float32(1e-4) is just below 1e-4, which NumPy compares in double.
  EXPECT_EQ(formatArray(f32({2}, {1e-4, 0.01})), "[1.e-04 1.e-02]");
  EXPECT_EQ(formatArray(f32({2}, {1, 1000.0001})),
            "[1.0000000e+00 1.0000001e+03]");
  EXPECT_EQ(formatArray(f32({1}, {3e10})), "[3.e+10]");
}

TEST(FormatArray, BFloat16) {
  // Shortest digits among bfloat16 values: bf16(0.1) is 0.10009765625.
  EXPECT_EQ(formatArray(bf16({3}, {0.1, 1.5, -2})), "[ 0.1  1.5 -2. ]");
  EXPECT_EQ(formatArray(bf16({}, {3.14159})), "3.14");
  EXPECT_EQ(formatArray(bf16({2}, {1e-5, 1e10})), "[1.e-05 1.e+10]");
  EXPECT_EQ(formatArray(bf16({}, {kInf})), "inf");
}

TEST(FormatArray, EveryBFloat16AndFloat16RoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    for (DType dtype : {DType::BF16, DType::F16}) {
      uint16_t b = uint16_t(bits);
      float value = dtype == DType::BF16 ? bfloat16ToFloat(b) : halfToFloat(b);
      if (std::isnan(value))
        continue;
      Array a = make<uint16_t>(dtype, {}, {b});
      std::string text = formatArray(a);
      float parsed = std::strtof(text.c_str(), nullptr);
      uint16_t back =
          dtype == DType::BF16 ? floatToBFloat16(parsed) : floatToHalf(parsed);
      ASSERT_EQ(back, b) << dtypeName(dtype) << " " << text;
    }
  }
}

TEST(FormatArray, LineWrapping) {
  EXPECT_EQ(formatArray(arangeInt(DType::I32, {40}, 1000)),
            "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 "
            "10000 11000\n"
            " 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 "
            "22000 23000\n"
            " 24000 25000 26000 27000 28000 29000 30000 31000 32000 33000 "
            "34000 35000\n"
            " 36000 37000 38000 39000]");
  EXPECT_EQ(formatArray(arange64({20}, 1.123456)),
            "[ 0.        1.123456  2.246912  3.370368  4.493824  5.61728   "
            "6.740736\n"
            "  7.864192  8.987648 10.111104 11.23456  12.358016 13.481472 "
            "14.604928\n"
            " 15.728384 16.85184  17.975296 19.098752 20.222208 21.345664]");
}

TEST(FormatArray, HigherRanks) {
  EXPECT_EQ(formatArray(arangeInt(DType::I64, {2, 3, 4})),
            "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n"
            " [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  EXPECT_EQ(formatArray(arangeInt(DType::I64, {2, 1, 2, 3})),
            "[[[[ 0  1  2]\n   [ 3  4  5]]]\n\n\n [[[ 6  7  8]\n   [ 9 10 "
            "11]]]]");
}

TEST(FormatArray, Empty) {
  EXPECT_EQ(formatArray(f64({2, 0, 3}, {})), "[]");
  EXPECT_EQ(formatArray(i64({0}, {})), "[]");
}

TEST(FormatArray, Summarisation) {
  EXPECT_EQ(formatArray(arangeInt(DType::I64, {2000})),
            "[   0    1    2 ... 1997 1998 1999]");
  // The 1000-element threshold counts elements, not rows.
  EXPECT_EQ(formatArray(arangeInt(DType::I64, {1000})).find("..."),
            std::string::npos);
  EXPECT_EQ(
      formatArray(arange64({2, 10, 100})),
      "[[[0.000e+00 1.000e+00 2.000e+00 ... 9.700e+01 9.800e+01 9.900e+01]\n"
      "  [1.000e+02 1.010e+02 1.020e+02 ... 1.970e+02 1.980e+02 1.990e+02]\n"
      "  [2.000e+02 2.010e+02 2.020e+02 ... 2.970e+02 2.980e+02 2.990e+02]\n"
      "  ...\n"
      "  [7.000e+02 7.010e+02 7.020e+02 ... 7.970e+02 7.980e+02 7.990e+02]\n"
      "  [8.000e+02 8.010e+02 8.020e+02 ... 8.970e+02 8.980e+02 8.990e+02]\n"
      "  [9.000e+02 9.010e+02 9.020e+02 ... 9.970e+02 9.980e+02 9.990e+02]]\n"
      "\n"
      " [[1.000e+03 1.001e+03 1.002e+03 ... 1.097e+03 1.098e+03 1.099e+03]\n"
      "  [1.100e+03 1.101e+03 1.102e+03 ... 1.197e+03 1.198e+03 1.199e+03]\n"
      "  [1.200e+03 1.201e+03 1.202e+03 ... 1.297e+03 1.298e+03 1.299e+03]\n"
      "  ...\n"
      "  [1.700e+03 1.701e+03 1.702e+03 ... 1.797e+03 1.798e+03 1.799e+03]\n"
      "  [1.800e+03 1.801e+03 1.802e+03 ... 1.897e+03 1.898e+03 1.899e+03]\n"
      "  [1.900e+03 1.901e+03 1.902e+03 ... 1.997e+03 1.998e+03 1.999e+03]]]");
}

TEST(FormatArray, InvalidArray) {
  Array a = f64({3}, {1, 2});
  EXPECT_EQ(formatArray(a).rfind("<invalid array", 0), 0u);
  a.shape = {-1};
  EXPECT_EQ(formatArray(a).rfind("<invalid array", 0), 0u);
}

// The Dragon4 layer against np.format_float_positional/scientific.
TEST(Dragon4, MatchesNumPyFormatFloat) {
  using namespace pcc::arrayio::detail;
  auto h = [](double x) {
    return decomposeFloat(floatToHalf(float(x)), 5, 10);
  };
  auto d = [](double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return decomposeFloat(bits, 11, 52);
  };
  auto s = [](float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return decomposeFloat(bits, 8, 23);
  };
  // np.format_float_positional(np.float16(4112)) == '4110.'
  EXPECT_EQ(formatPositional(h(4112), -1, -1, Trim::Keep, -1, -1), "4110.");
  // ... but with min_digits=0 every integer digit is printed.
  EXPECT_EQ(formatPositional(h(4112), 8, 0, Trim::Zeros, -1, -1), "4112.");
  EXPECT_EQ(formatPositional(h(0.3), 10, -1, Trim::Keep, -1, -1), "0.3");
  EXPECT_EQ(formatPositional(s(3.14159265f), -1, -1, Trim::Keep, -1, -1),
            "3.1415927");
  EXPECT_EQ(formatScientific(s(3.14159265f), -1, -1, Trim::Keep, -1, -1),
            "3.1415927e+00");
  EXPECT_EQ(formatScientific(s(1.23e24f), -1, -1, Trim::Keep, -1, 4),
            "1.23e+0024");
  EXPECT_EQ(formatScientific(d(1e23), -1, -1, Trim::DptZeros, -1, -1), "1e+23");
  EXPECT_EQ(formatScientific(d(1.0), 3, 3, Trim::Keep, 3, -1), "  1.000e+00");
  EXPECT_EQ(formatPositional(d(2), 8, 0, Trim::Zeros, 3, 2), "  2.  ");
  EXPECT_EQ(formatPositional(d(-1.5), 8, 0, Trim::Zeros, 3, 2), " -1.5 ");
  EXPECT_EQ(formatPositional(d(0.999999999), 8, -1, Trim::Zeros, -1, -1), "1.");
  EXPECT_EQ(formatPositional(d(1e-10), 8, -1, Trim::Zeros, -1, -1), "0.");
  EXPECT_EQ(formatPositional(d(5e-324), -1, -1, Trim::LeaveOneZero, -1, -1)
                .substr(0, 6),
            "0.0000");
  EXPECT_EQ(formatScientific(d(5e-324), -1, -1, Trim::DptZeros, -1, -1),
            "5e-324");
  EXPECT_EQ(formatScientific(d(1.7976931348623157e308), -1, -1, Trim::DptZeros,
                             -1, -1),
            "1.7976931348623157e+308");
}

TEST(HalfConversion, RoundTripsEveryValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b = uint16_t(bits);
    float f = halfToFloat(b);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    ASSERT_EQ(floatToHalf(f), b) << bits;
    ASSERT_EQ(floatToBFloat16(bfloat16ToFloat(b)), b) << bits;
  }
}

TEST(HalfConversion, RoundsToNearestEven) {
  EXPECT_EQ(halfToFloat(floatToHalf(65519.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(65520.0f))));
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0u);
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 1u);
  EXPECT_EQ(floatToHalf(-std::ldexp(3.0f, -25)), 0x8002u);
  EXPECT_EQ(halfToFloat(floatToHalf(2049.0f)), 2048.0f);
  EXPECT_EQ(halfToFloat(floatToHalf(2051.0f)), 2052.0f);
  EXPECT_EQ(bfloat16ToFloat(floatToBFloat16(1.00390625f)), 1.0f);
  EXPECT_EQ(bfloat16ToFloat(floatToBFloat16(1.01171875f)), 1.015625f);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(floatToBFloat16(float(kNaN)))));
}

} // namespace
