//===- NpyTest.cpp - Tests of .npy reading and writing --------------------===//
//
// Round trips for every dtype through memory and through files, the exact
// bytes np.save writes, the header variants NumPy's reader accepts, and one
// test per error the reader reports, checking that the message says what is
// wrong. The reader must also survive every truncation of a valid file,
// since a fuzzer will feed it arbitrary bytes.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <unistd.h>

using namespace pcc::arrayio;

namespace {

const DType kAllDTypes[] = {DType::I8,  DType::I16, DType::I32,
                            DType::I64, DType::F16, DType::BF16,
                            DType::F32, DType::F64, DType::Bool};

/// An array of `dtype` with the given shape and arbitrary byte contents.
Array sample(DType dtype, std::vector<int64_t> shape) {
  Array a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data.resize(size_t(a.numElements()) * dtypeSize(dtype));
  for (size_t i = 0; i < a.data.size(); ++i)
    a.data[i] =
        dtype == DType::Bool ? uint8_t(i % 3 == 0) : uint8_t(i * 37 + 11);
  return a;
}

std::vector<uint8_t> bytesOf(const std::string &s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

/// A .npy file with the given version and header text (padded like np.save
/// does unless `pad` is false), followed by `data`.
std::vector<uint8_t> npyFile(const std::string &header, unsigned major = 1,
                             const std::string &data = "", unsigned minor = 0) {
  std::string h = header;
  size_t lengthSize = major == 1 ? 2 : 4;
  while ((6 + 2 + lengthSize + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(minor);
  for (size_t i = 0; i < lengthSize; ++i)
    out += char((h.size() >> (8 * i)) & 0xff);
  return bytesOf(out + h + data);
}

bool read(const std::vector<uint8_t> &bytes, Array &out, std::string &error) {
  return readNpyFromMemory(bytes.data(), bytes.size(), out, error);
}

/// Reads `bytes`, expecting failure, and returns the message.
std::string readError(const std::vector<uint8_t> &bytes) {
  Array out;
  std::string error;
  EXPECT_FALSE(read(bytes, out, error));
  EXPECT_FALSE(error.empty());
  return error;
}

::testing::AssertionResult contains(const std::string &text,
                                    const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "'" << text << "' does not contain '" << part << "'";
}

std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/arrayio-test-" +
         std::to_string(getpid()) + "-" + name;
}

TEST(Npy, RoundTripsEveryDTypeInMemory) {
  for (DType dtype : kAllDTypes) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, {0}, {3}, {2, 3}, {2, 0, 4}, {2, 1, 3, 2}}) {
      Array a = sample(dtype, shape), b;
      std::vector<uint8_t> bytes;
      std::string error;
      ASSERT_TRUE(writeNpyToMemory(a, bytes, error)) << error;
      // Header and padding end on a 64-byte boundary, as np.save's do.
      EXPECT_EQ((bytes.size() - a.data.size()) % 64, 0u);
      ASSERT_TRUE(read(bytes, b, error)) << error;
      EXPECT_EQ(b.dtype, dtype);
      EXPECT_EQ(b.shape, shape);
      EXPECT_EQ(b.data, a.data);
    }
  }
}

TEST(Npy, RoundTripsEveryDTypeThroughFiles) {
  std::string path = tempPath("roundtrip.npy");
  for (DType dtype : kAllDTypes) {
    Array a = sample(dtype, {4, 5}), b;
    std::string error;
    ASSERT_TRUE(writeNpy(path, a, error)) << error;
    ASSERT_TRUE(readNpy(path, b, error)) << error;
    EXPECT_EQ(b.dtype, dtype);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
  std::remove(path.c_str());
}

TEST(Npy, BoolBytesOtherThanOneAreTrue) {
  // NumPy reads any non-zero byte as True (np.frombuffer(b"\0\2\377",
  // bool) is [False, True, True]); pcc's i1 holds exactly 0 or 1.
  std::vector<uint8_t> bytes = npyFile(
      "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }", 1,
      std::string("\0\2\377\1", 4));
  Array a;
  std::string error;
  ASSERT_TRUE(read(bytes, a, error)) << error;
  EXPECT_EQ(a.data, (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(Npy, RepeatedHeaderKeysTakeTheLastValue) {
  // The header is a Python dict literal, as np.load reads it: a repeated
  // key's last value counts.
  std::vector<uint8_t> bytes = npyFile(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
      "'shape': (1,), }",
      1, std::string(4, '\0'));
  Array a;
  std::string error;
  ASSERT_TRUE(read(bytes, a, error)) << error;
  EXPECT_EQ(a.shape, (std::vector<int64_t>{1}));
}

TEST(Npy, WritesWhatNpSaveWrites) {
  // Bytes of np.save(f, np.arange(6, dtype='<i4').reshape(2, 3)).
  Array a = sample(DType::I32, {2, 3});
  std::vector<uint8_t> bytes;
  std::string error;
  ASSERT_TRUE(writeNpyToMemory(a, bytes, error));
  std::string header(bytes.begin(), bytes.begin() + 128);
  EXPECT_EQ(header,
            std::string("\x93NUMPY\x01\x00v\x00", 10) +
                "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }" +
                std::string(58, ' ') + "\n");
  EXPECT_EQ(bytes.size(), 128u + 24u);

  // 0-d float64: no spare room for a growing first axis.
  ASSERT_TRUE(writeNpyToMemory(sample(DType::F64, {}), bytes, error));
  EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 128),
            "{'descr': '<f8', 'fortran_order': False, 'shape': (), }" +
                std::string(62, ' ') + "\n");
  ASSERT_TRUE(writeNpyToMemory(sample(DType::Bool, {1}), bytes, error));
  EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 36),
            "{'descr': '|b1', 'fortran_");
  ASSERT_TRUE(writeNpyToMemory(sample(DType::I8, {1}), bytes, error));
  EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 23),
            "{'descr': '|i");
}

TEST(Npy, ReadsVersions2And3) {
  for (unsigned major : {2u, 3u}) {
    Array a;
    std::string error;
    ASSERT_TRUE(read(npyFile("{'descr': '<f4', 'fortran_order': False, "
                             "'shape': (2,), }",
                             major, std::string(8, '\0')),
                     a, error))
        << error;
    EXPECT_EQ(a.dtype, DType::F32);
    EXPECT_EQ(a.shape, std::vector<int64_t>{2});
  }
}

TEST(Npy, AcceptsAnyHeaderNumPyAccepts) {
  Array a;
  std::string error;
  // Double quotes, another key order, no trailing comma, Python 2 longs.
  ASSERT_TRUE(read(npyFile("{\"shape\": (3L, 1), \"fortran_order\": False,"
                           "\"descr\": \"<i2\"}",
                           1, std::string(6, '\0')),
                   a, error))
      << error;
  EXPECT_EQ(a.dtype, DType::I16);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{3, 1}));
  // Fortran order is harmless when at most one dimension exceeds 1.
  ASSERT_TRUE(read(npyFile("{'descr': '<f8', 'fortran_order': True, "
                           "'shape': (1, 2), }",
                           1, std::string(16, '\0')),
                   a, error))
      << error;
  // Single-byte types have no byte order.
  ASSERT_TRUE(read(npyFile("{'descr': '>i1', 'fortran_order': False, "
                           "'shape': (), }",
                           1, "x"),
                   a, error))
      << error;
  EXPECT_EQ(a.dtype, DType::I8);
  // Bytes past the elements are ignored, as np.load ignores them.
  ASSERT_TRUE(read(npyFile("{'descr': '|b1', 'fortran_order': False, "
                           "'shape': (2,), }",
                           1, std::string("\x01\x00trailing", 10)),
                   a, error))
      << error;
  EXPECT_EQ(a.data.size(), 2u);
}

TEST(NpyErrors, CannotOpen) {
  Array a;
  std::string error;
  EXPECT_FALSE(readNpy("/nonexistent/dir/x.npy", a, error));
  EXPECT_TRUE(contains(error, "/nonexistent/dir/x.npy: cannot open"));
  EXPECT_TRUE(contains(error, "No such file or directory"));
  const char *dir = std::getenv("TMPDIR");
  EXPECT_FALSE(readNpy(dir ? dir : "/tmp", a, error));
  EXPECT_TRUE(contains(error, "it is a directory"));
}

TEST(NpyErrors, NotAnNpyFile) {
  EXPECT_TRUE(contains(readError(bytesOf("PK\x03\x04 a zip file")),
                       "not a NumPy .npy file"));
  EXPECT_TRUE(contains(readError({}), "not a NumPy .npy file (it is empty)"));
}

TEST(NpyErrors, UnsupportedVersion) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (), }";
  EXPECT_TRUE(contains(readError(npyFile(header, 4, "abcd")),
                       "unsupported .npy format version 4.0"));
  EXPECT_TRUE(
      contains(readError(npyFile(header, 1, "abcd", 1)), "version 1.1"));
}

TEST(NpyErrors, MalformedHeader) {
  auto withHeader = [](const std::string &h) { return npyFile(h, 1, "abcd"); };
  EXPECT_TRUE(contains(readError(withHeader("['descr', '<f4']")),
                       "malformed .npy header: the header is not a dict"));
  EXPECT_TRUE(contains(
      readError(withHeader("{'descr': '<f4', 'fortran_order': False}")),
      "the key 'shape' is missing"));
  EXPECT_TRUE(contains(readError(withHeader("{'descr': '<f4', "
                                            "'fortran_order': False, "
                                            "'shape': (), 'x': 1}")),
                       "unexpected key 'x'"));
  EXPECT_TRUE(contains(readError(withHeader("{'descr': '<f4', "
                                            "'fortran_order': False, "
                                            "'shape': [2], }")),
                       "'shape' is not a tuple of integers"));
  EXPECT_TRUE(contains(readError(withHeader("{'descr': '<f4', "
                                            "'fortran_order': 0, "
                                            "'shape': (), }")),
                       "'fortran_order' is not True or False"));
  EXPECT_TRUE(contains(readError(withHeader("{'descr': '<f4, ")),
                       "malformed .npy header: unterminated string"));
  EXPECT_TRUE(contains(readError(withHeader("{'descr': 4.5}")),
                       "malformed .npy header"));
  EXPECT_TRUE(contains(readError(withHeader(std::string(100, '(') + "}")),
                       "nests too deeply"));
  // The declared header length runs past the end of the file.
  std::vector<uint8_t> bytes =
      bytesOf(std::string("\x93NUMPY\x01\x00\xff\x00{", 11));
  EXPECT_TRUE(contains(readError(bytes),
                       "the header is declared as 255 bytes but only 1"));
}

TEST(NpyErrors, FortranOrder) {
  std::string error = readError(
      npyFile("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", 1,
              std::string(48, '\0')));
  EXPECT_TRUE(contains(error, "Fortran (column-major) order"));
  EXPECT_TRUE(contains(error, "np.ascontiguousarray"));
}

TEST(NpyErrors, BigEndian) {
  std::string error = readError(
      npyFile("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", 1,
              std::string(8, '\0')));
  EXPECT_TRUE(contains(error, "big-endian (dtype '>i4')"));
  EXPECT_TRUE(contains(error, "astype('<i4')"));
}

TEST(NpyErrors, ObjectAndUnsupportedDTypes) {
  auto withDescr = [](const std::string &descr) {
    return readError(npyFile("{'descr': " + descr +
                                 ", 'fortran_order': False, 'shape': (1,), }",
                             1, std::string(16, '\0')));
  };
  EXPECT_TRUE(contains(withDescr("'|O'"), "object arrays"));
  EXPECT_TRUE(contains(withDescr("'<u2'"), "unsupported dtype uint16"));
  EXPECT_TRUE(contains(withDescr("'|u1'"), "unsupported dtype uint8"));
  EXPECT_TRUE(contains(withDescr("'<c16'"), "unsupported dtype complex128"));
  EXPECT_TRUE(contains(withDescr("'<f16'"), "unsupported dtype float128"));
  EXPECT_TRUE(contains(withDescr("'<U3'"), "unicode string"));
  EXPECT_TRUE(contains(withDescr("'<M8[ns]'"), "datetime64"));
  EXPECT_TRUE(contains(withDescr("'<V2'"), "ml_dtypes bfloat16"));
  EXPECT_TRUE(
      contains(withDescr("[('a', '<i4'), ('b', '<f4')]"), "structured arrays"));
  EXPECT_TRUE(contains(withDescr("'<u2'"), "int8, int16, int32, int64, "
                                           "float16, bfloat16, float32, "
                                           "float64 and bool"));
}

TEST(NpyErrors, TruncatedData) {
  std::string error = readError(
      npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 1,
              std::string(20, '\0')));
  EXPECT_TRUE(contains(error, "truncated data"));
  EXPECT_TRUE(contains(error, "needs 24 bytes but only 20"));
}

TEST(NpyErrors, NegativeDimension) {
  EXPECT_TRUE(contains(
      readError(npyFile(
          "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }")),
      "the shape (2, -1) has a negative dimension"));
}

TEST(NpyErrors, ElementCountOverflow) {
  EXPECT_TRUE(contains(readError(npyFile("{'descr': '<f4', 'fortran_order': "
                                         "False, 'shape': (4294967296, "
                                         "4294967296), }")),
                       "too many elements"));
  EXPECT_TRUE(contains(readError(npyFile("{'descr': '<f4', 'fortran_order': "
                                         "False, 'shape': "
                                         "(99999999999999999999,), }")),
                       "too many elements"));
  // The byte count overflows although the element count does not.
  EXPECT_TRUE(contains(readError(npyFile("{'descr': '<f8', 'fortran_order': "
                                         "False, 'shape': "
                                         "(4611686018427387904,), }")),
                       "too many elements"));
}

TEST(NpyErrors, SurvivesEveryTruncation) {
  std::vector<uint8_t> bytes;
  std::string error;
  ASSERT_TRUE(writeNpyToMemory(sample(DType::F64, {3, 2}), bytes, error));
  for (size_t n = 0; n < bytes.size(); ++n) {
    // A copy of exactly n bytes, so that reading past it is caught by
    // sanitizers.
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    Array a;
    EXPECT_FALSE(readNpyFromMemory(prefix.data(), prefix.size(), a, error))
        << n;
  }
}

TEST(NpyErrors, WriteErrors) {
  std::string error;
  Array bad = sample(DType::F32, {2, 2});
  bad.data.pop_back();
  EXPECT_FALSE(writeNpy(tempPath("bad.npy"), bad, error));
  EXPECT_TRUE(contains(error, "does not match its 15 bytes of data"));
  EXPECT_FALSE(
      writeNpy("/nonexistent/dir/x.npy", sample(DType::F32, {1}), error));
  EXPECT_TRUE(contains(error, "/nonexistent/dir/x.npy: cannot create"));
}

TEST(DType, Names) {
  EXPECT_STREQ(dtypeName(DType::I32), "int32");
  EXPECT_STREQ(dtypeName(DType::F16), "float16");
  EXPECT_STREQ(dtypeName(DType::BF16), "bfloat16");
  EXPECT_STREQ(dtypeName(DType::Bool), "bool");
  EXPECT_STREQ(npyDescr(DType::I8), "|i1");
  EXPECT_STREQ(npyDescr(DType::F16), "<f2");
  EXPECT_STREQ(npyDescr(DType::Bool), "|b1");
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_TRUE(isFloatingPoint(DType::BF16));
  EXPECT_FALSE(isFloatingPoint(DType::Bool));
}

} // namespace
