//===- ArrayIO.h - NumPy .npy files and NumPy-exact printing ----*- C++ -*-===//
//
// Arrays cross the boundary of pcc as NumPy `.npy` files (program arguments,
// `--save-results`) and as text that must match what NumPy's `print(arr)`
// shows with default print options. This library provides both: a reader
// for `.npy` format versions 1.0, 2.0 and 3.0 that reports every problem as
// one clear sentence, a writer that produces byte-identical files to
// `np.save`, and `formatArray`, a port of NumPy's `arrayprint` (Dragon4
// shortest digits, positional/scientific switching, column alignment, line
// wrapping and `...` summarisation). It uses only the C++17 standard library
// and no exceptions, because it is linked both into the `pcc` driver and into
// the standalone executables `pcc compile` produces.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_ARRAYIO_ARRAYIO_H
#define PCC_ARRAYIO_ARRAYIO_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pcc::arrayio {

/// The element types pcc programs exchange, in the order of the runtime's
/// pcc_dtype (`Bool` is `i1`).
enum class DType { I8, I16, I32, I64, F16, BF16, F32, F64, Bool };

/// Size of one element in bytes.
size_t dtypeSize(DType dtype);

/// NumPy's name of the type: `int32`, `float16`, `bfloat16`, `bool`, ...
const char *dtypeName(DType dtype);

/// The `descr` string written to `.npy` headers: `<i4`, `<f2`, `|b1`,
/// `|i1`, ... NumPy has no bfloat16, so `BF16` is written as `bfloat16`, the
/// name under which the ml_dtypes package registers the type: NumPy loads
/// such files once ml_dtypes is imported, and `readNpy` accepts exactly this
/// spelling (a `<V2` void descr, which is what `np.save` writes for an
/// ml_dtypes array, does not say which 2-byte type it holds and is refused).
const char *npyDescr(DType dtype);

/// True for F16, BF16, F32 and F64.
bool isFloatingPoint(DType dtype);

/// A dense array: row-major (C order) elements, little-endian, `data.size()
/// == numElements() * dtypeSize(dtype)`. A 0-d array has an empty shape and
/// one element.
struct Array {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// Product of the dimensions (1 for a 0-d array).
  int64_t numElements() const;
};

/// Reads a `.npy` file. On failure returns false and sets `error` to one
/// sentence that starts with the path (`x.npy: truncated data: ...`).
bool readNpy(const std::string &path, Array &out, std::string &error);

/// Parses the bytes of a `.npy` file; the same checks and messages as
/// `readNpy`, without the path prefix. Never reads outside [bytes,
/// bytes+size), whatever the input.
bool readNpyFromMemory(const uint8_t *bytes, size_t size, Array &out,
                       std::string &error);

/// Writes `a` as a version 1.0 `.npy` file laid out exactly as `np.save`
/// lays it out (header padded with spaces to a multiple of 64 bytes). Returns
/// false with a one-sentence `error` if `a` is inconsistent or the file
/// cannot be written.
bool writeNpy(const std::string &path, const Array &a, std::string &error);

/// The bytes `writeNpy` would write.
bool writeNpyToMemory(const Array &a, std::vector<uint8_t> &out,
                      std::string &error);

/// Exactly what NumPy's `print(arr)` prints for `a` with the default print
/// options (precision 8, threshold 1000, edgeitems 3, linewidth 75,
/// floatmode 'maxprec'), without the final newline. A 0-d array prints like
/// its scalar (`5`, `True`, `0.1`, `1e-05`). BF16 values are printed as if
/// NumPy had a native bfloat16 type: the shortest digits that identify the
/// value among bfloat16 numbers, with the float formatting rules applied in
/// bfloat16 precision. If `data` does not match `shape`, returns a
/// description of the mismatch in angle brackets instead.
std::string formatArray(const Array &a);

/// IEEE binary16 bits to float (exact).
float halfToFloat(uint16_t bits);
/// float to IEEE binary16 bits, rounding to nearest even.
uint16_t floatToHalf(float value);
/// bfloat16 bits to float (exact).
float bfloat16ToFloat(uint16_t bits);
/// float to bfloat16 bits, rounding to nearest even (NaN stays NaN).
uint16_t floatToBFloat16(float value);

} // namespace pcc::arrayio

#endif // PCC_ARRAYIO_ARRAYIO_H
