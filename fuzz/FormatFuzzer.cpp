//===- FormatFuzzer.cpp - libFuzzer harness for the result printer --------===//
//
// Builds an array of any dtype and a small shape from the input (every bit
// pattern: NaN payloads, subnormals, infinities, f16/bf16 edge values) and
// prints it as NumPy would. The printer must not crash or read out of
// bounds, and what it prints must be one line per row, brackets balanced.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>

using namespace pcc::arrayio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  static const DType kTypes[] = {DType::Bool, DType::I8,   DType::I16,
                                 DType::I32,  DType::I64,  DType::F16,
                                 DType::BF16, DType::F32,  DType::F64};
  Array array;
  array.dtype = kTypes[data[0] % (sizeof(kTypes) / sizeof(kTypes[0]))];
  // Rank 0 to 3, each dimension 0 to 15: enough for summarised rows too
  // when the data is long.
  int rank = data[1] % 4;
  size_t offset = 2;
  int64_t count = 1;
  for (int dim = 0; dim < rank; ++dim) {
    int64_t extent = offset < size ? data[offset++] % 16 : 1;
    array.shape.push_back(extent);
    count *= extent;
  }
  size_t bytes = size_t(count) * dtypeSize(array.dtype);
  array.data.assign(bytes, 0);
  size_t available = size - std::min(size, offset);
  if (bytes != 0 && available != 0)
    std::memcpy(array.data.data(), data + offset, std::min(bytes, available));
  if (array.dtype == DType::Bool)
    for (uint8_t &b : array.data)
      b &= 1;
  std::string text = formatArray(array);
  int depth = 0;
  for (char c : text) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (depth < 0)
      std::abort();
  }
  if (depth != 0)
    std::abort();
  return 0;
}
