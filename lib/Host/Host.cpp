//===- Host.cpp - the host side of a pcc program --------------------------===//
//
// Implements Host.h: the signature's text form, argument checks, the entry's
// buffers and descriptors, and the saving of results.
//
//===----------------------------------------------------------------------===//

#include "pcc/Host/Host.h"
#include "pcc/Host/Interrupt.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

using namespace pcc::host;
using namespace pcc::arrayio;

static_assert(sizeof(void *) == sizeof(int64_t),
              "memref descriptors are built from 8-byte fields");

/// Alignment of every host buffer handed to compiled code.
static constexpr size_t kBufferAlignment = 64;

static constexpr DType kDTypes[] = {DType::I8,  DType::I16, DType::I32,
                                    DType::I64, DType::F16, DType::BF16,
                                    DType::F32, DType::F64, DType::Bool};

/// The entry's name on one line of the NUL-terminated signature: a
/// backslash, a newline and a NUL (which a quoted MLIR name may hold) are
/// escaped as \\, \n and \0.
static std::string escapeName(const std::string &name) {
  std::string escaped;
  for (char c : name)
    escaped += c == '\\'   ? "\\\\"
               : c == '\n' ? "\\n"
               : c == '\0' ? "\\0"
                           : std::string(1, c);
  return escaped;
}

static std::string unescapeName(const std::string &line) {
  std::string name;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\\' || i + 1 == line.size()) {
      name += line[i];
      continue;
    }
    char next = line[++i];
    name += next == 'n' ? '\n' : next == '0' ? '\0' : next;
  }
  return name;
}

std::string pcc::host::encodeSignature(const EntrySignature &signature) {
  std::ostringstream os;
  os << escapeName(signature.name) << "\n";
  auto encode = [&](const char *kind, const BoundaryType &type) {
    os << kind << " " << dtypeName(type.dtype) << " " << type.mlirType;
    for (int64_t dim : type.shape)
      os << " " << dim;
    os << "\n";
  };
  for (const BoundaryType &type : signature.arguments)
    encode("arg", type);
  for (const BoundaryType &type : signature.results)
    encode("res", type);
  return os.str();
}

bool pcc::host::decodeSignature(const std::string &text,
                                EntrySignature &signature, std::string &error) {
  std::istringstream lines(text);
  if (!std::getline(lines, signature.name) || signature.name.empty()) {
    error = "the embedded entry signature has no name";
    return false;
  }
  signature.name = unescapeName(signature.name);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string kind, dtype;
    BoundaryType type;
    fields >> kind >> dtype >> type.mlirType;
    bool known = false;
    for (DType candidate : kDTypes)
      if (dtype == dtypeName(candidate)) {
        type.dtype = candidate;
        known = true;
      }
    for (int64_t dim; fields >> dim;)
      type.shape.push_back(dim);
    if (!known || (kind != "arg" && kind != "res") || !fields.eof()) {
      error = "the embedded entry signature is malformed at '" + line + "'";
      return false;
    }
    (kind == "arg" ? signature.arguments : signature.results).push_back(type);
  }
  return true;
}

std::string pcc::host::formatShape(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

static std::string plural(size_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// loadArguments in one process.
static bool readArguments(const EntrySignature &signature,
                          const std::vector<std::string> &files,
                          std::vector<Array> &arrays, std::string &error) {
  if (files.size() != signature.arguments.size()) {
    std::string types;
    for (const BoundaryType &type : signature.arguments)
      types += (types.empty() ? "" : ", ") + type.mlirType;
    error = "@" + signature.name + " takes " +
            plural(signature.arguments.size(), "argument") +
            (types.empty() ? "" : " (" + types + ")") + ", but " +
            plural(files.size(), ".npy file") +
            (files.size() == 1 ? " was" : " were") + " given";
    return false;
  }
  arrays.assign(files.size(), Array());
  for (size_t index = 0; index < files.size(); ++index) {
    if (!readNpy(files[index], arrays[index], error))
      return false;
    const BoundaryType &expected = signature.arguments[index];
    const Array &array = arrays[index];
    if (array.dtype == expected.dtype && array.shape == expected.shape)
      continue;
    error = "argument #" + std::to_string(index) + " of @" + signature.name +
            " expects " + expected.mlirType + " (" + dtypeName(expected.dtype) +
            ", shape " + formatShape(expected.shape) + "), but " +
            files[index] + " holds " + dtypeName(array.dtype) + " of shape " +
            formatShape(array.shape);
    return false;
  }
  return true;
}

bool pcc::host::loadArguments(const EntrySignature &signature,
                              const std::vector<std::string> &files,
                              std::vector<Array> &arrays, std::string &error) {
  if (pcc_process_count() == 1)
    return readArguments(signature, files, arrays, error);
  // Several processes: process 0 reads the files and sends what it read, or
  // why it could not, to the others, so that only process 0 needs them.
  char message[1024] = "";
  if (pcc_process_rank() == 0 &&
      !readArguments(signature, files, arrays, error))
    std::snprintf(message, sizeof(message), "%s", error.c_str());
  if (pcc_broadcast(message, sizeof(message)) != 0) {
    error = "cannot send the arguments to the other processes";
    return false;
  }
  if (message[0]) {
    error = message;
    return false;
  }
  if (pcc_process_rank() != 0) {
    arrays.assign(signature.arguments.size(), Array());
    for (size_t index = 0; index < arrays.size(); ++index) {
      const BoundaryType &type = signature.arguments[index];
      arrays[index].dtype = type.dtype;
      arrays[index].shape = type.shape;
      arrays[index].data.resize(size_t(arrays[index].numElements()) *
                                dtypeSize(type.dtype));
    }
  }
  for (Array &array : arrays)
    if (pcc_broadcast(array.data.data(), int64_t(array.data.size())) != 0) {
      error = "cannot send the arguments to the other processes";
      return false;
    }
  return true;
}

/// The size in bytes of a value of `type`, or false if it overflows.
static bool getSizeInBytes(const BoundaryType &type, size_t &bytes) {
  uint64_t size = dtypeSize(type.dtype);
  for (int64_t dim : type.shape)
    if (dim < 0 ||
        __builtin_mul_overflow(size, static_cast<uint64_t>(dim), &size))
      return false;
  // Leave room for the allocators' rounding.
  if (size > (uint64_t(1) << 62))
    return false;
  bytes = size;
  return true;
}

bool pcc::host::checkMemoryLimit(const EntrySignature &signature, int64_t limit,
                                 unsigned long copies, std::string &error) {
  uint64_t total = 0;
  bool overflow = false;
  for (const auto *types : {&signature.arguments, &signature.results})
    for (const BoundaryType &type : *types) {
      size_t bytes = 0;
      overflow |= !getSizeInBytes(type, bytes) ||
                  __builtin_add_overflow(total, bytes, &total);
    }
  overflow |= __builtin_mul_overflow(total, uint64_t(copies), &total);
  if (!overflow && total <= uint64_t(limit))
    return true;
  error = "the arguments and results of @" + signature.name +
          (copies > 1 ? " (" + std::to_string(copies) + " copies, --rotate)"
                      : std::string()) +
          " alone need " +
          (overflow ? std::string("more than 2^62") : std::to_string(total)) +
          " bytes, more than the memory limit of " + std::to_string(limit) +
          " bytes (--memory-limit)";
  return false;
}

static void *allocateHost(size_t bytes) {
  // aligned_alloc wants a multiple of the alignment, and never 0 bytes
  // here: even an empty tensor gets a real pointer.
  size_t rounded = (bytes / kBufferAlignment + 1) * kBufferAlignment;
  return std::aligned_alloc(kBufferAlignment, rounded);
}

BufferAllocator pcc::host::hostAllocator() { return {allocateHost, std::free}; }

static void *allocateGpuVisible(size_t bytes) {
  return _mlir_memref_to_llvm_aligned_alloc(kBufferAlignment, bytes);
}

BufferAllocator pcc::host::gpuAllocator() {
  return {allocateGpuVisible, _mlir_memref_to_llvm_free};
}

bool EntryCall::addBuffer(const BoundaryType &type, const std::string &what,
                          std::string &error) {
  Buffer buffer;
  if (getSizeInBytes(type, buffer.bytes))
    buffer.data = static_cast<uint8_t *>(allocator.allocate(buffer.bytes));
  if (!buffer.data) {
    error = "cannot allocate memory for " + what + " (" + type.mlirType + ")";
    return false;
  }
  std::memset(buffer.data, 0, buffer.bytes);
  buffers.push_back(buffer);
  return true;
}

void EntryCall::buildFrame() {
  size_t count = buffers.size(), words = 2 * count;
  for (const auto *types : {&signature.arguments, &signature.results})
    for (const BoundaryType &type : *types)
      words += 3 + 2 * type.shape.size();
  frame.assign(words, 0);
  uint64_t *packed = frame.data(), *pointers = packed + count;
  uint64_t *descriptor = pointers + count;
  auto address = [](const void *pointer) {
    return reinterpret_cast<uint64_t>(pointer);
  };
  size_t index = 0;
  for (const auto *types : {&signature.arguments, &signature.results})
    for (const BoundaryType &type : *types) {
      packed[index] = address(&pointers[index]);
      pointers[index] = address(descriptor);
      descriptor[0] = descriptor[1] = address(buffers[index].data);
      descriptor[2] = 0; // offset
      size_t rank = type.shape.size();
      uint64_t stride = 1;
      for (size_t dim = rank; dim-- > 0;) {
        descriptor[3 + dim] = uint64_t(type.shape[dim]);
        descriptor[3 + rank + dim] = stride;
        stride *= uint64_t(type.shape[dim]);
      }
      descriptor += 3 + 2 * rank;
      ++index;
    }
}

std::unique_ptr<EntryCall> EntryCall::create(const EntrySignature &signature,
                                             std::vector<Array> &arguments,
                                             BufferAllocator allocator,
                                             bool releaseArguments,
                                             std::string &error) {
  std::unique_ptr<EntryCall> call(new EntryCall(signature, allocator));
  const std::string of = " of @" + signature.name;
  for (size_t index = 0; index < signature.arguments.size(); ++index) {
    if (!call->addBuffer(signature.arguments[index],
                         "argument #" + std::to_string(index) + of, error))
      return nullptr;
    Buffer &buffer = call->buffers.back();
    if (buffer.bytes != 0)
      std::memcpy(buffer.data, arguments[index].data.data(), buffer.bytes);
    if (releaseArguments)
      std::vector<uint8_t>().swap(arguments[index].data);
  }
  call->numArguments = signature.arguments.size();
  for (size_t index = 0; index < signature.results.size(); ++index)
    if (!call->addBuffer(signature.results[index],
                         "result #" + std::to_string(index) + of, error))
      return nullptr;
  call->buildFrame();
  return call;
}

std::vector<std::unique_ptr<EntryCall>> pcc::host::createEntryCalls(
    const EntrySignature &signature, std::vector<Array> &arguments,
    BufferAllocator allocator, unsigned long copies, std::string &error) {
  std::vector<std::unique_ptr<EntryCall>> calls;
  for (unsigned long copy = 0; copy < copies; ++copy) {
    calls.push_back(EntryCall::create(signature, arguments, allocator,
                                      /*releaseArguments=*/copy + 1 == copies,
                                      error));
    if (!calls.back())
      return {};
  }
  return calls;
}

std::vector<Array>
pcc::host::takeResults(std::vector<std::unique_ptr<EntryCall>> &calls,
                       unsigned long repeat) {
  // Every run's buffers are still allocated: the copies left for later
  // (pcc_share_output) are made now, before anything is read or freed.
  pcc_complete_outputs();
  std::unique_ptr<EntryCall> last =
      std::move(calls[(repeat - 1) % calls.size()]);
  calls.clear();
  last->releaseArguments();
  return last->results();
}

void EntryCall::releaseArguments() {
  for (size_t index = 0; index < numArguments; ++index) {
    allocator.release(buffers[index].data);
    buffers[index].data = nullptr;
  }
}

std::vector<double>
pcc::host::runRepeatedly(void (*entry)(void **),
                         const std::vector<std::unique_ptr<EntryCall>> &calls,
                         unsigned long repeat) {
  std::vector<double> times(repeat);
  // The argument vectors side by side, read in order: a run's first read is
  // then no miss of the harness's own.
  std::vector<void **> arguments;
  for (const auto &call : calls)
    arguments.push_back(call->packedArguments());
  auto last = std::chrono::steady_clock::now();
  for (unsigned long run = 0; run < repeat; ++run) {
    entry(arguments[run % arguments.size()]);
    auto now = std::chrono::steady_clock::now();
    times[run] = std::chrono::duration<double>(now - last).count();
    last = now;
  }
  return times;
}

void pcc::host::printRunTimes(const std::vector<double> &times) {
  for (size_t run = 0; run < times.size(); ++run)
    std::fprintf(stderr, "pcc: run %zu/%zu: %.9f s\n", run + 1, times.size(),
                 times[run]);
}

EntryCall::~EntryCall() {
  for (Buffer &buffer : buffers)
    if (buffer.data)
      allocator.release(buffer.data);
}

std::vector<Array> EntryCall::results() const {
  std::vector<Array> arrays;
  size_t first = signature.arguments.size();
  for (size_t index = 0; index < signature.results.size(); ++index) {
    const Buffer &buffer = buffers[first + index];
    Array &array = arrays.emplace_back();
    array.dtype = signature.results[index].dtype;
    array.shape = signature.results[index].shape;
    array.data.assign(buffer.data, buffer.data + buffer.bytes);
  }
  return arrays;
}

/// The directories of `dir` and its parents that do not exist yet,
/// outermost first.
static std::vector<std::string> missingDirectories(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> missing;
  for (fs::path path = dir; !path.empty() && !fs::exists(path, ec);
       path = path.parent_path()) {
    missing.insert(missing.begin(), path.string());
    if (path == path.parent_path())
      break;
  }
  return missing;
}

bool pcc::host::saveResults(const std::string &dir,
                            const std::vector<Array> &results,
                            std::string &error) {
  // All or nothing: every file is written under a temporary name first and
  // renamed once all are complete; on failure or an interrupt the files and
  // the directories made for them are removed again.
  std::vector<std::string> temporaries, finals;
  for (size_t index = 0; index < results.size(); ++index) {
    std::string name = "result" + std::to_string(index) + ".npy";
    temporaries.push_back(dir + "/." + name + ".partial");
    finals.push_back(dir + "/" + name);
  }
  PartialFiles partial(temporaries, finals, missingDirectories(dir));
  auto fail = [&](const std::string &message) {
    error = message;
    partial.remove();
    return false;
  };
  std::error_code ec;
  if (!std::filesystem::create_directories(dir, ec) && ec)
    return fail("cannot create the directory '" + dir +
                "' for --save-results: " + ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    return fail("cannot create the directory '" + dir +
                "' for --save-results: " + std::strerror(ENOTDIR));
  for (size_t index = 0; index < results.size(); ++index)
    if (!writeNpy(temporaries[index], results[index], error)) {
      // Name the file the user asked for.
      size_t at = error.find(temporaries[index]);
      if (at != std::string::npos)
        error.replace(at, temporaries[index].size(), finals[index]);
      return fail(error);
    }
  for (size_t index = 0; index < results.size(); ++index) {
    if (std::rename(temporaries[index].c_str(), finals[index].c_str()) != 0)
      return fail("cannot write '" + finals[index] +
                  "': " + std::strerror(errno));
    partial.renamed.store(index + 1);
  }
  return true;
}
