//===- Marshal.cpp - pcc driver: values across the entry boundary --------===//
//
// Implements the argument checks, the memref descriptors over driver-owned
// buffers and the writing of results declared in Marshal.h.
//
//===----------------------------------------------------------------------===//

#include "Marshal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <new>
#include <optional>

using namespace pcc::driver;
using namespace pcc::arrayio;

static_assert(sizeof(void *) == sizeof(int64_t),
              "memref descriptors are built from 8-byte fields");

/// Alignment of every buffer the driver hands to compiled code.
static constexpr size_t kBufferAlignment = 64;

void pcc::driver::reportError(const llvm::Twine &message) {
  llvm::errs() << "pcc: error: " << message << "\n";
}

/// The size in bytes of a value of `type`, or nullopt if that overflows.
static std::optional<size_t> getSizeInBytes(const BoundaryType &type) {
  int64_t bytes = static_cast<int64_t>(dtypeSize(type.dtype));
  for (int64_t dim : type.shape)
    if (dim < 0 || llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  if (llvm::AddOverflow(bytes, static_cast<int64_t>(kBufferAlignment), bytes))
    return std::nullopt;
  return static_cast<size_t>(bytes) - kBufferAlignment;
}

std::string pcc::driver::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "(";
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, ", ");
  if (shape.size() == 1)
    os << ",";
  os << ")";
  return text;
}

static std::string plural(size_t count, llvm::StringRef noun) {
  return std::to_string(count) + " " + noun.str() + (count == 1 ? "" : "s");
}

llvm::Expected<std::vector<Array>>
pcc::driver::loadArguments(const EntrySignature &signature,
                           llvm::ArrayRef<std::string> files) {
  if (files.size() != signature.arguments.size()) {
    std::string types;
    llvm::raw_string_ostream os(types);
    llvm::interleaveComma(signature.arguments, os,
                          [&](const BoundaryType &t) { os << t.mlirType; });
    return llvm::createStringError(
        "@" + signature.name + " takes " +
        plural(signature.arguments.size(), "argument") +
        (types.empty() ? "" : " (" + types + ")") + ", but " +
        plural(files.size(), ".npy file") +
        (files.size() == 1 ? " was" : " were") + " given");
  }
  std::vector<Array> arrays(files.size());
  for (auto [index, file] : llvm::enumerate(files)) {
    std::string error;
    if (!readNpy(file, arrays[index], error))
      return llvm::createStringError(error);
    const BoundaryType &expected = signature.arguments[index];
    const Array &array = arrays[index];
    if (array.dtype == expected.dtype && array.shape == expected.shape)
      continue;
    return llvm::createStringError(
        "argument #" + std::to_string(index) + " of @" + signature.name +
        " expects " + expected.mlirType + " (" + dtypeName(expected.dtype) +
        ", shape " + formatShape(expected.shape) + "), but " + file +
        " holds " + dtypeName(array.dtype) + " of shape " +
        formatShape(array.shape));
  }
  return arrays;
}

llvm::Expected<std::unique_ptr<MemRefBuffer>>
MemRefBuffer::create(const BoundaryType &type, const llvm::Twine &what) {
  std::unique_ptr<MemRefBuffer> buffer(new MemRefBuffer());
  std::optional<size_t> bytes = getSizeInBytes(type);
  // Never a null pointer, also for empty tensors.
  if (bytes)
    buffer->storage.reset(new (std::nothrow)
                              uint8_t[*bytes + kBufferAlignment]());
  if (!buffer->storage)
    return llvm::createStringError("cannot allocate memory for " + what + " (" +
                                   type.mlirType + ")");
  buffer->bytes = *bytes;
  uint8_t *base = buffer->storage.get();
  auto address = reinterpret_cast<uintptr_t>(base);
  buffer->aligned =
      base + (kBufferAlignment - address % kBufferAlignment) % kBufferAlignment;

  size_t rank = type.shape.size();
  std::vector<int64_t> &words = buffer->descriptorWords;
  words.resize(3 + 2 * rank);
  words[0] = reinterpret_cast<int64_t>(base);
  words[1] = reinterpret_cast<int64_t>(buffer->aligned);
  words[2] = 0; // offset
  int64_t stride = 1;
  for (size_t dim = rank; dim-- > 0;) {
    words[3 + dim] = type.shape[dim];
    words[3 + rank + dim] = stride;
    stride *= type.shape[dim];
  }
  return buffer;
}

llvm::Expected<std::unique_ptr<EntryCall>>
EntryCall::create(const EntrySignature &signature,
                  llvm::ArrayRef<Array> arguments) {
  std::unique_ptr<EntryCall> call(new EntryCall(signature));
  for (auto [index, type, array] :
       llvm::enumerate(signature.arguments, arguments)) {
    auto buffer = MemRefBuffer::create(type, "argument #" + llvm::Twine(index) +
                                                 " of @" + signature.name);
    if (!buffer)
      return buffer.takeError();
    if ((*buffer)->sizeInBytes() != 0)
      std::memcpy((*buffer)->data(), array.data.data(),
                  (*buffer)->sizeInBytes());
    call->buffers.push_back(std::move(*buffer));
  }
  for (auto [index, type] : llvm::enumerate(signature.results)) {
    auto buffer = MemRefBuffer::create(type, "result #" + llvm::Twine(index) +
                                                 " of @" + signature.name);
    if (!buffer)
      return buffer.takeError();
    call->buffers.push_back(std::move(*buffer));
  }
  for (auto &buffer : call->buffers)
    call->descriptors.push_back(buffer->descriptor());
  for (void *&descriptor : call->descriptors)
    call->packed.push_back(&descriptor);
  return call;
}

std::vector<Array> EntryCall::results() const {
  std::vector<Array> arrays;
  size_t first = signature.arguments.size();
  for (auto [type, buffer] :
       llvm::zip(signature.results, llvm::drop_begin(buffers, first))) {
    Array &array = arrays.emplace_back();
    array.dtype = type.dtype;
    array.shape = type.shape;
    array.data.assign(buffer->data(), buffer->data() + buffer->sizeInBytes());
  }
  return arrays;
}

llvm::Error pcc::driver::saveResults(llvm::StringRef dir,
                                     llvm::ArrayRef<Array> results) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create the directory '" + dir +
                                   "' for --save-results: " + ec.message());
  for (auto [index, result] : llvm::enumerate(results)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "result" + std::to_string(index) + ".npy");
    std::string error;
    if (!writeNpy(std::string(path), result, error))
      return llvm::createStringError(error);
  }
  return llvm::Error::success();
}
