//===- Npy.cpp - Reading and writing NumPy .npy files ---------------------===//
//
// The `.npy` format (numpy/lib/format.py): the magic string "\x93NUMPY", a
// version, a little-endian header length, and a Python dict literal with the
// keys 'descr', 'fortran_order' and 'shape', followed by the raw elements.
// The reader parses the dict with a small Python-literal parser rather than
// by pattern matching, so that every header NumPy's own reader accepts
// (any key order, either quote, extra spaces) is accepted here too. Inputs
// come from users and from a fuzzer, so every length is checked before it is
// used and nesting depth is bounded.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

namespace pcc::arrayio {

namespace {
/// `text` with every byte that is not printable ASCII written `\xNN`, so
/// that a message quoting a file's bytes cannot hold control characters.
std::string printable(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c >= ' ' && c <= '~' && c != '\\') {
      out += c;
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(uint8_t(c)));
    out += buf;
  }
  return out;
}

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
/// np.save leaves room after the header so that the first dimension can
/// grow in place up to this many digits.
constexpr size_t kGrowthAxisMaxDigits = 21;
constexpr size_t kArrayAlign = 64;
constexpr int kMaxNesting = 16;

/// A Python literal as it may appear in a .npy header.
struct PyValue {
  enum Kind { String, Bool, None, Int, Tuple, List, Dict } kind = None;
  std::string str;
  bool boolean = false;
  int64_t integer = 0;
  /// The integer did not fit in int64 (its sign is in `integer`).
  bool intOverflow = false;
  std::vector<PyValue> items;
  std::vector<std::pair<std::string, PyValue>> entries;
};

/// Recursive-descent parser for the literals `ast.literal_eval` accepts in
/// headers NumPy writes: strings, booleans, None, integers, tuples, lists
/// and dicts.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  bool parse(PyValue &out, std::string &error) {
    if (!parseValue(out, 0, error))
      return false;
    skipSpace();
    if (pos != text.size()) {
      error = "unexpected text after the header value at offset " +
              std::to_string(pos);
      return false;
    }
    return true;
  }

private:
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  /// `'c'`, or `'\xNN'` for a byte that is not printable ASCII.
  static std::string quoteChar(char c) {
    return "'" + printable(std::string(1, c)) + "'";
  }

  bool fail(std::string &error, const std::string &what) {
    error = what + " at offset " + std::to_string(pos);
    return false;
  }

  bool parseValue(PyValue &out, int depth, std::string &error) {
    if (depth > kMaxNesting)
      return fail(error, "the header nests too deeply");
    skipSpace();
    if (pos >= text.size())
      return fail(error, "the header ends where a value was expected");
    char c = text[pos];
    if (c == '\'' || c == '"') {
      out.kind = PyValue::String;
      return parseString(out.str, error);
    }
    if (c == '(' || c == '[')
      return parseSequence(out, depth, error);
    if (c == '{')
      return parseDict(out, depth, error);
    if (c == '-' || c == '+' || (c >= '0' && c <= '9'))
      return parseInt(out, error);
    for (const char *word : {"True", "False", "None"}) {
      size_t n = std::strlen(word);
      if (text.compare(pos, n, word) == 0) {
        pos += n;
        out.kind = word[0] == 'N' ? PyValue::None : PyValue::Bool;
        out.boolean = word[0] == 'T';
        return true;
      }
    }
    return fail(error, "unexpected character " + quoteChar(c));
  }

  bool parseString(std::string &out, std::string &error) {
    char quote = text[pos++];
    while (pos < text.size() && text[pos] != quote) {
      char c = text[pos++];
      if (c == '\\') {
        if (pos >= text.size())
          break;
        c = text[pos++];
      }
      out += c;
    }
    if (pos >= text.size())
      return fail(error, "unterminated string");
    ++pos;
    return true;
  }

  bool parseInt(PyValue &out, std::string &error) {
    out.kind = PyValue::Int;
    bool negative = text[pos] == '-';
    if (text[pos] == '-' || text[pos] == '+')
      ++pos;
    if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
      return fail(error, "malformed integer");
    // Accumulate the magnitude as unsigned so that INT64_MIN parses.
    uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
    uint64_t magnitude = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      unsigned digit = unsigned(text[pos++] - '0');
      if (magnitude > (limit - digit) / 10)
        out.intOverflow = true;
      else
        magnitude = magnitude * 10 + digit;
    }
    // Python 2 era NumPy wrote longs as `3L`.
    if (pos < text.size() && (text[pos] == 'L' || text[pos] == 'l'))
      ++pos;
    out.integer = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
    if (out.intOverflow)
      out.integer = negative ? -1 : 1;
    return true;
  }

  bool parseSequence(PyValue &out, int depth, std::string &error) {
    char close = text[pos] == '(' ? ')' : ']';
    out.kind = close == ')' ? PyValue::Tuple : PyValue::List;
    ++pos;
    bool sawComma = false;
    while (!consume(close)) {
      PyValue item;
      if (!parseValue(item, depth + 1, error))
        return false;
      out.items.push_back(std::move(item));
      sawComma = consume(',');
      if (!sawComma && !consume(close))
        return fail(error, std::string("expected ',' or '") + close + "'");
      if (!sawComma)
        break;
    }
    // `(3)` is just 3 in Python, not a tuple.
    if (close == ')' && out.items.size() == 1 && !sawComma) {
      PyValue inner = std::move(out.items[0]);
      out = std::move(inner);
    }
    return true;
  }

  template <typename Entries>
  static auto findKey(Entries &entries, const std::string &key) {
    return std::find_if(entries.begin(), entries.end(),
                        [&](const auto &entry) { return entry.first == key; });
  }

  bool parseDict(PyValue &out, int depth, std::string &error) {
    out.kind = PyValue::Dict;
    ++pos;
    while (!consume('}')) {
      skipSpace();
      if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
        return fail(error, "expected a string key");
      std::string key;
      if (!parseString(key, error))
        return false;
      if (!consume(':'))
        return fail(error, "expected ':'");
      PyValue value;
      if (!parseValue(value, depth + 1, error))
        return false;
      // As in Python (and so np.load), a repeated key's last value counts.
      auto existing = findKey(out.entries, key);
      if (existing != out.entries.end())
        existing->second = std::move(value);
      else
        out.entries.emplace_back(std::move(key), std::move(value));
      if (!consume(',')) {
        if (!consume('}'))
          return fail(error, "expected ',' or '}'");
        break;
      }
    }
    return true;
  }

  const std::string &text;
  size_t pos = 0;
};

std::string shapeRepr(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ',';
  return s + ")";
}

const char kSupported[] = "int8, int16, int32, int64, float16, bfloat16, "
                          "float32, float64 and bool";

/// Maps a descr string to a DType, or explains why it cannot.
bool parseDescr(const std::string &descr, DType &out, std::string &error) {
  if (descr == npyDescr(DType::BF16)) {
    out = DType::BF16;
    return true;
  }
  size_t i = 0;
  char order = '=';
  if (!descr.empty() && std::strchr("<>|=", descr[0]))
    order = descr[i++];
  if (i >= descr.size()) {
    error =
        "malformed .npy header: empty dtype descr '" + printable(descr) + "'";
    return false;
  }
  char kind = descr[i++];
  std::string sizeText = descr.substr(i);
  if (kind == 'O') {
    error = "object arrays (dtype 'O') are not supported; only numeric "
            "arrays (" +
            std::string(kSupported) + ") can be read";
    return false;
  }
  // The item size in bytes; only used to name the type in messages.
  int size = 0;
  bool sizeOk = !sizeText.empty() && sizeText.size() <= 4;
  for (size_t k = 0; sizeOk && k < sizeText.size(); ++k) {
    char c = sizeText[k];
    sizeOk = c >= '0' && c <= '9';
    size = size * 10 + (c - '0');
  }
  std::string name;
  if (sizeOk) {
    int bits = size * 8;
    switch (kind) {
    case 'b':
      name = size == 1 ? "bool" : "";
      break;
    case 'i':
      name = "int" + std::to_string(bits);
      break;
    case 'u':
      name = "uint" + std::to_string(bits);
      break;
    case 'f':
      name = "float" + std::to_string(bits);
      break;
    case 'c':
      name = "complex" + std::to_string(bits);
      break;
    case 'V':
      name = size == 2 ? "void (2 raw bytes per element, which is how "
                         "np.save stores an ml_dtypes bfloat16 array; save "
                         "it as float32 instead)"
                       : "void";
      break;
    default:
      break;
    }
  }
  if (name.empty()) {
    switch (kind) {
    case 'U':
      name = "unicode string";
      break;
    case 'S':
    case 'a':
      name = "byte string";
      break;
    case 'M':
      name = "datetime64";
      break;
    case 'm':
      name = "timedelta64";
      break;
    default:
      name = "'" + printable(descr) + "'";
      break;
    }
  }

  static const struct {
    const char *descr;
    DType dtype;
  } kTable[] = {{"b1", DType::Bool}, {"i1", DType::I8},  {"i2", DType::I16},
                {"i4", DType::I32},  {"i8", DType::I64}, {"f2", DType::F16},
                {"f4", DType::F32},  {"f8", DType::F64}};
  std::string core = descr.substr(i - 1);
  for (const auto &entry : kTable) {
    if (core != entry.descr)
      continue;
    if (order == '>' && dtypeSize(entry.dtype) > 1) {
      error = "the data is big-endian (dtype '" + descr +
              "'), which is not supported; save it little-endian, e.g. "
              "np.save(path, a.astype('<" +
              core + "'))";
      return false;
    }
    out = entry.dtype;
    return true;
  }
  error = "unsupported dtype " + name + " (descr '" + printable(descr) +
          "'); the supported dtypes are " + kSupported;
  return false;
}

const PyValue *lookup(const PyValue &dict, const char *key) {
  for (const auto &entry : dict.entries)
    if (entry.first == key)
      return &entry.second;
  return nullptr;
}

bool parseHeader(const std::string &text, Array &out, std::string &error) {
  PyValue dict;
  std::string detail;
  if (!HeaderParser(text).parse(dict, detail)) {
    error = "malformed .npy header: " + detail;
    return false;
  }
  if (dict.kind != PyValue::Dict) {
    error = "malformed .npy header: the header is not a dictionary";
    return false;
  }
  for (const char *key : {"descr", "fortran_order", "shape"}) {
    if (!lookup(dict, key)) {
      error = std::string("malformed .npy header: the key '") + key +
              "' is missing";
      return false;
    }
  }
  for (const auto &entry : dict.entries) {
    if (entry.first != "descr" && entry.first != "fortran_order" &&
        entry.first != "shape") {
      error = "malformed .npy header: unexpected key '" +
              printable(entry.first) + "'";
      return false;
    }
  }

  const PyValue &shape = *lookup(dict, "shape");
  if (shape.kind != PyValue::Tuple) {
    error = "malformed .npy header: 'shape' is not a tuple of integers";
    return false;
  }
  out.shape.clear();
  bool negative = false, tooLarge = false;
  for (const PyValue &dim : shape.items) {
    if (dim.kind != PyValue::Int) {
      error = "malformed .npy header: 'shape' is not a tuple of integers";
      return false;
    }
    negative |= dim.integer < 0;
    tooLarge |= dim.intOverflow;
    out.shape.push_back(dim.integer);
  }
  if (negative) {
    error = "malformed .npy header: the shape " + shapeRepr(out.shape) +
            " has a negative dimension";
    return false;
  }
  if (tooLarge) {
    error = "the shape has too many elements: a dimension does not fit in "
            "64 bits";
    return false;
  }

  const PyValue &fortran = *lookup(dict, "fortran_order");
  if (fortran.kind != PyValue::Bool) {
    error = "malformed .npy header: 'fortran_order' is not True or False";
    return false;
  }
  // Column-major and row-major layouts coincide when at most one dimension
  // exceeds 1.
  size_t nonTrivial = 0;
  for (int64_t d : out.shape)
    nonTrivial += d > 1;
  if (fortran.boolean && nonTrivial > 1) {
    error = "the array is stored in Fortran (column-major) order, which is "
            "not supported; save it in C order with "
            "np.save(path, np.ascontiguousarray(a))";
    return false;
  }

  const PyValue &descr = *lookup(dict, "descr");
  if (descr.kind == PyValue::List) {
    error = "unsupported dtype: structured arrays (record dtypes) are not "
            "supported; the supported dtypes are " +
            std::string(kSupported);
    return false;
  }
  if (descr.kind != PyValue::String) {
    error = "malformed .npy header: 'descr' is not a string";
    return false;
  }
  return parseDescr(descr.str, out.dtype, error);
}

/// Validates a whole .npy file and fills in `out`'s dtype and shape, but not
/// its data, which starts at `dataStart`: the callers copy or move it.
bool parseNpy(const uint8_t *bytes, size_t size, Array &out, size_t &dataStart,
              std::string &error) {
  if (size == 0) {
    error = "not a NumPy .npy file (it is empty)";
    return false;
  }
  if (size < kMagicSize || std::memcmp(bytes, kMagic, kMagicSize) != 0) {
    error = "not a NumPy .npy file (it does not start with the \\x93NUMPY "
            "magic string)";
    return false;
  }
  if (size < kMagicSize + 2) {
    error = "malformed .npy header: the file ends before the format version";
    return false;
  }
  unsigned major = bytes[6], minor = bytes[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(minor) + "; versions 1.0, 2.0 and 3.0 are supported";
    return false;
  }
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t headerStart = kMagicSize + 2 + lengthSize;
  if (size < headerStart) {
    error = "malformed .npy header: the file ends before the header length";
    return false;
  }
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthSize; ++i)
    headerLength |= uint64_t(bytes[kMagicSize + 2 + i]) << (8 * i);
  if (headerLength > size - headerStart) {
    error = "malformed .npy header: the header is declared as " +
            std::to_string(headerLength) + " bytes but only " +
            std::to_string(size - headerStart) + " follow";
    return false;
  }
  std::string header(reinterpret_cast<const char *>(bytes + headerStart),
                     size_t(headerLength));

  Array result;
  if (!parseHeader(header, result, error))
    return false;

  size_t itemSize = dtypeSize(result.dtype);
  uint64_t count = 1;
  uint64_t maxCount = std::numeric_limits<size_t>::max() / itemSize;
  for (int64_t d : result.shape) {
    if (d != 0 && count > maxCount / uint64_t(d)) {
      error = "the shape " + shapeRepr(result.shape) +
              " has too many elements: its size in bytes does not fit in 64 "
              "bits";
      return false;
    }
    count *= uint64_t(d);
  }
  // Every dimension is at least 0 and the product fits, so count is exact.
  if (count > uint64_t(std::numeric_limits<int64_t>::max())) {
    error = "the shape " + shapeRepr(result.shape) +
            " has too many elements: the element count does not fit in 64 "
            "bits";
    return false;
  }
  size_t expected = size_t(count) * itemSize;
  dataStart = headerStart + size_t(headerLength);
  size_t available = size - dataStart;
  if (available < expected) {
    error = "truncated data: shape " + shapeRepr(result.shape) + " of " +
            dtypeName(result.dtype) + " needs " + std::to_string(expected) +
            " bytes but only " + std::to_string(available) +
            " follow the header";
    return false;
  }
  out = std::move(result);
  return true;
}

/// NumPy reads any non-zero byte as True; pcc's i1 is exactly 0 or 1 (a
/// byte of 2 would otherwise leak into arith.extui or arith.xori).
void normalizeBools(Array &array) {
  if (array.dtype == DType::Bool)
    for (uint8_t &byte : array.data)
      byte = byte != 0;
}

} // namespace

bool readNpyFromMemory(const uint8_t *bytes, size_t size, Array &out,
                       std::string &error) {
  Array result;
  size_t dataStart;
  if (!parseNpy(bytes, size, result, dataStart, error))
    return false;
  // Like np.load, ignore anything after the elements.
  size_t dataSize = size_t(result.numElements()) * dtypeSize(result.dtype);
  result.data.assign(bytes + dataStart, bytes + dataStart + dataSize);
  normalizeBools(result);
  out = std::move(result);
  return true;
}

/// The most bytes a .npy header may declare (NumPy's own limit is 10,000
/// unless told otherwise).
constexpr uint64_t kMaxHeaderLength = uint64_t(1) << 20;

/// How many bytes of a .npy file that starts with `bytes` parseNpy reads: 0
/// while the header is incomplete, and no more than `size` once the prefix
/// is known to be invalid (parseNpy then says why). What follows is never
/// read, so an endless input (/dev/zero, a pipe) costs no more than the
/// array its header declares.
static size_t getNpyBytesNeeded(const uint8_t *bytes, size_t size) {
  if (size < kMagicSize + 2)
    return 0;
  if (std::memcmp(bytes, kMagic, kMagicSize) != 0 || bytes[6] < 1 ||
      bytes[6] > 3)
    return size;
  size_t lengthSize = bytes[6] == 1 ? 2 : 4;
  size_t headerStart = kMagicSize + 2 + lengthSize;
  if (size < headerStart)
    return 0;
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthSize; ++i)
    headerLength |= uint64_t(bytes[kMagicSize + 2 + i]) << (8 * i);
  if (headerLength > kMaxHeaderLength)
    return size;
  if (size - headerStart < headerLength)
    return 0;
  Array header;
  std::string ignored;
  if (!parseHeader(std::string(reinterpret_cast<const char *>(bytes +
                                                              headerStart),
                               size_t(headerLength)),
                   header, ignored))
    return size;
  uint64_t total = headerStart + headerLength;
  uint64_t data = dtypeSize(header.dtype);
  for (int64_t d : header.shape)
    if (__builtin_mul_overflow(data, uint64_t(d), &data))
      return size;
  if (__builtin_add_overflow(total, data, &total) ||
      total > std::numeric_limits<size_t>::max())
    return size;
  return size_t(total);
}

bool readNpy(const std::string &path, Array &out, std::string &error) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file) {
    error = path + ": cannot open the file (" + std::strerror(errno) + ")";
    return false;
  }
  std::vector<uint8_t> bytes;
  // Reserve the whole file up front where its size is known (not for pipes).
  // A directory opens fine but cannot be read, and its "size" is
  // meaningless.
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(status)) {
    error = path + ": cannot read the file (it is a directory)";
    return false;
  }
  if (!ec && std::filesystem::is_regular_file(status)) {
    uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size < uintmax_t(1) << 40)
      bytes.reserve(size_t(size));
  }
  // Up to what the header declares, and not past it.
  uint8_t buffer[1 << 16];
  for (;;) {
    size_t want = sizeof buffer;
    size_t needed = getNpyBytesNeeded(bytes.data(), bytes.size());
    if (needed) {
      if (bytes.size() >= needed)
        break;
      want = std::min(want, needed - bytes.size());
    }
    size_t n = std::fread(buffer, 1, want, file.get());
    bytes.insert(bytes.end(), buffer, buffer + n);
    if (n < want)
      break;
  }
  if (std::ferror(file.get())) {
    error = path + ": cannot read the file (" + std::strerror(errno) + ")";
    return false;
  }
  Array result;
  size_t dataStart;
  std::string detail;
  if (!parseNpy(bytes.data(), bytes.size(), result, dataStart, detail)) {
    error = path + ": " + detail;
    return false;
  }
  // Reuse the file buffer for the elements rather than copying them: input
  // arrays can be large.
  size_t dataSize = size_t(result.numElements()) * dtypeSize(result.dtype);
  bytes.erase(bytes.begin(), bytes.begin() + std::ptrdiff_t(dataStart));
  bytes.resize(dataSize);
  result.data = std::move(bytes);
  normalizeBools(result);
  out = std::move(result);
  return true;
}

bool writeNpyToMemory(const Array &a, std::vector<uint8_t> &out,
                      std::string &error) {
  uint64_t count = 1;
  bool overflow = false;
  for (int64_t d : a.shape) {
    if (d < 0) {
      error = "cannot write an array whose shape " + shapeRepr(a.shape) +
              " has a negative dimension";
      return false;
    }
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / uint64_t(d))
      overflow = true;
    count *= uint64_t(d);
  }
  size_t itemSize = dtypeSize(a.dtype);
  if (overflow || count > std::numeric_limits<size_t>::max() / itemSize ||
      a.data.size() != size_t(count) * itemSize) {
    error = "cannot write the array: its shape " + shapeRepr(a.shape) + " of " +
            dtypeName(a.dtype) + " does not match its " +
            std::to_string(a.data.size()) + " bytes of data";
    return false;
  }

  // The header np.save writes: sorted keys, Python reprs, spare room for
  // the first dimension to grow, then spaces and a newline up to a multiple
  // of 64 bytes.
  std::string header =
      std::string("{'descr': '") + npyDescr(a.dtype) +
      "', 'fortran_order': False, 'shape': " + shapeRepr(a.shape) + ", }";
  if (!a.shape.empty())
    header.append(
        kGrowthAxisMaxDigits -
            std::min(kGrowthAxisMaxDigits, std::to_string(a.shape[0]).size()),
        ' ');
  unsigned major = 1;
  size_t lengthSize = 2;
  size_t headerLength = header.size() + 1;
  size_t padding =
      kArrayAlign - (kMagicSize + 2 + lengthSize + headerLength) % kArrayAlign;
  if (headerLength + padding > 0xffff) {
    major = 2;
    lengthSize = 4;
    padding = kArrayAlign -
              (kMagicSize + 2 + lengthSize + headerLength) % kArrayAlign;
  }
  size_t total = headerLength + padding;

  out.clear();
  out.reserve(kMagicSize + 2 + lengthSize + total + a.data.size());
  out.insert(out.end(), kMagic, kMagic + kMagicSize);
  out.push_back(uint8_t(major));
  out.push_back(0);
  for (size_t i = 0; i < lengthSize; ++i)
    out.push_back(uint8_t(total >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), padding, uint8_t(' '));
  out.push_back('\n');
  out.insert(out.end(), a.data.begin(), a.data.end());
  return true;
}

bool writeNpy(const std::string &path, const Array &a, std::string &error) {
  std::vector<uint8_t> bytes;
  std::string detail;
  if (!writeNpyToMemory(a, bytes, detail)) {
    error = path + ": " + detail;
    return false;
  }
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = path + ": cannot create the file (" + std::strerror(errno) + ")";
    return false;
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  int savedErrno = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    error =
        path + ": cannot write the file (" + std::strerror(savedErrno) + ")";
    return false;
  }
  return true;
}

} // namespace pcc::arrayio
