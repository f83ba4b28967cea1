//===- Marshal.h - pcc driver: values across the entry boundary -*- C++ -*-===//
//
// The driver calls `_mlir_ciface__pcc_entry` (see the pcc-entry-abi pass)
// with one pointer to a memref descriptor per argument and per result. This
// file turns `.npy` arrays into such descriptors over buffers the driver
// owns, checks that each array matches the entry's argument type, and reads
// results back as arrays. It depends on LLVM Support only, not on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TOOLS_PCC_MARSHAL_H
#define PCC_TOOLS_PCC_MARSHAL_H

#include "pcc/ArrayIO/ArrayIO.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pcc::driver {

/// Prints `pcc: error: MESSAGE` on standard error: the form of every error
/// that has no location in the program.
void reportError(const llvm::Twine &message);

/// The type of one argument or result of the entry function, as it crosses
/// the boundary: an element type and a static shape (empty for a scalar or a
/// 0-d tensor, which both cross as rank-0 memrefs).
struct BoundaryType {
  arrayio::DType dtype = arrayio::DType::F32;
  std::vector<int64_t> shape;
  /// The MLIR spelling, for messages (`tensor<4x3xf32>`, `f32`).
  std::string mlirType;
};

/// The signature of the entry function.
struct EntrySignature {
  std::string name;
  std::vector<BoundaryType> arguments;
  std::vector<BoundaryType> results;
};

/// Formats a shape as Python prints a tuple: `()`, `(12,)`, `(4, 3)`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Reads the argument files and checks them against `signature`: their
/// number, and each file's dtype and shape.
llvm::Expected<std::vector<arrayio::Array>>
loadArguments(const EntrySignature &signature,
              llvm::ArrayRef<std::string> files);

/// A C-contiguous buffer of the driver and the memref descriptor that
/// describes it: {allocated, aligned, offset, sizes[rank], strides[rank]},
/// every field 8 bytes wide.
class MemRefBuffer {
public:
  /// Allocates a zeroed, 64-byte aligned buffer for a value of `type`, or
  /// fails if it does not fit in memory (`what` names the value).
  static llvm::Expected<std::unique_ptr<MemRefBuffer>>
  create(const BoundaryType &type, const llvm::Twine &what);

  /// Pointer to the descriptor, what the C interface expects.
  void *descriptor() { return descriptorWords.data(); }
  uint8_t *data() { return aligned; }
  size_t sizeInBytes() const { return bytes; }

private:
  MemRefBuffer() = default;

  std::unique_ptr<uint8_t[]> storage;
  uint8_t *aligned = nullptr;
  size_t bytes = 0;
  std::vector<int64_t> descriptorWords;
};

/// The buffers of one call of the entry: the arguments' (filled from arrays)
/// followed by the results'. Every run of the entry reuses them.
class EntryCall {
public:
  static llvm::Expected<std::unique_ptr<EntryCall>>
  create(const EntrySignature &signature,
         llvm::ArrayRef<arrayio::Array> arguments);

  /// The argument vector for a packed (`_mlir_<name>`) function: a pointer
  /// to each descriptor pointer.
  void **packedArguments() { return packed.data(); }

  /// Copies the result buffers out as arrays.
  std::vector<arrayio::Array> results() const;

private:
  explicit EntryCall(const EntrySignature &signature) : signature(signature) {}

  const EntrySignature &signature;
  std::vector<std::unique_ptr<MemRefBuffer>> buffers;
  std::vector<void *> descriptors;
  std::vector<void *> packed;
};

/// Writes `results` as DIR/result0.npy, DIR/result1.npy, ..., creating DIR
/// if needed.
llvm::Error saveResults(llvm::StringRef dir,
                        llvm::ArrayRef<arrayio::Array> results);

} // namespace pcc::driver

#endif // PCC_TOOLS_PCC_MARSHAL_H
