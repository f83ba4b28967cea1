//===- Host.h - the host side of a pcc program ------------------*- C++ -*-===//
//
// What surrounds the compiled entry function when a pcc program runs, both
// under `pcc run` (JIT) and in the executables `pcc compile` writes: the
// entry's boundary signature, the `.npy` arguments checked against it, the
// buffers and memref descriptors the entry is called with
// (`_mlir_ciface__pcc_entry`, see the pcc-entry-abi pass), and the results
// read back, printed and saved. Plain C++17 with no LLVM or MLIR, because
// standalone executables link it; errors come back as one sentence.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_HOST_HOST_H
#define PCC_HOST_HOST_H

#include "pcc/ArrayIO/ArrayIO.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pcc::host {

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

/// A line-based text form of a signature, which `pcc compile` embeds in the
/// executables it writes: the name, then one line per value,
/// `arg|res DTYPE MLIRTYPE DIM...`.
std::string encodeSignature(const EntrySignature &signature);
/// Parses what encodeSignature wrote.
bool decodeSignature(const std::string &text, EntrySignature &signature,
                     std::string &error);

/// Formats a shape as Python prints a tuple: `()`, `(12,)`, `(4, 3)`.
std::string formatShape(const std::vector<int64_t> &shape);

/// Reads the argument files and checks them against `signature`: their
/// number, and each file's dtype and shape.
bool loadArguments(const EntrySignature &signature,
                   const std::vector<std::string> &files,
                   std::vector<arrayio::Array> &arrays, std::string &error);

/// Checks that `copies` sets of the entry's arguments and results (see
/// createEntryCalls) fit in `limit` bytes, before anything is allocated.
bool checkMemoryLimit(const EntrySignature &signature, int64_t limit,
                      unsigned long copies, std::string &error);

/// Where the buffers crossing the boundary live: host memory for the cpu
/// backend, memory that GPUs can also reach for the cuda backend.
struct BufferAllocator {
  void *(*allocate)(size_t bytes) = nullptr;
  void (*release)(void *pointer) = nullptr;
};
/// 64-byte aligned host memory.
BufferAllocator hostAllocator();
/// Memory that kernels on every GPU can reach, once the cuda platform is in
/// use (pcc_cuda_init): the runtime's generic allocation, managed memory
/// then. (Host code names no CUDA function, so that a cpu executable
/// links none.)
BufferAllocator gpuAllocator();

/// The buffers of one call of the entry: the arguments' (filled from arrays)
/// followed by the results'. Every run of the entry reuses them.
class EntryCall {
public:
  /// Allocates and fills the buffers, or returns null with `error` set.
  /// With `releaseArguments`, each argument's data is freed once copied, so
  /// that large inputs are not held twice.
  static std::unique_ptr<EntryCall>
  create(const EntrySignature &signature,
         std::vector<arrayio::Array> &arguments, BufferAllocator allocator,
         bool releaseArguments, std::string &error);
  ~EntryCall();
  EntryCall(const EntryCall &) = delete;
  EntryCall &operator=(const EntryCall &) = delete;

  /// The argument vector of the packed entry (`_mlir__mlir_ciface__pcc_entry`
  /// and its AOT twin): a pointer to each descriptor pointer.
  void **packedArguments() { return reinterpret_cast<void **>(frame.data()); }

  /// Copies the result buffers out as arrays.
  std::vector<arrayio::Array> results() const;

  /// Frees the argument buffers (the runs are over).
  void releaseArguments();

private:
  /// A C-contiguous buffer.
  struct Buffer {
    uint8_t *data = nullptr;
    size_t bytes = 0;
  };

  EntryCall(const EntrySignature &signature, BufferAllocator allocator)
      : signature(signature), allocator(allocator) {}
  bool addBuffer(const BoundaryType &type, const std::string &what,
                 std::string &error);
  /// Builds `frame` once every buffer is allocated.
  void buildFrame();

  const EntrySignature &signature;
  BufferAllocator allocator;
  std::vector<Buffer> buffers;
  /// What the entry reads before it reaches the data, in one allocation (a
  /// run then misses on few lines when --rotate has pushed it out of
  /// cache): the packed arguments (a pointer to each descriptor pointer),
  /// the descriptor pointers, and the memref descriptors {allocated,
  /// aligned, offset, sizes[rank], strides[rank]}, 8-byte words all.
  std::vector<uint64_t> frame;
  /// The first numArguments buffers are the arguments'.
  size_t numArguments = 0;
};

/// The buffers of `copies` calls of the entry, each filled from `arguments`
/// (see EntryCall::create): --rotate's copies. The arguments' data is freed
/// as the last copy takes it. Empty with `error` set on failure.
std::vector<std::unique_ptr<EntryCall>>
createEntryCalls(const EntrySignature &signature,
                 std::vector<arrayio::Array> &arguments,
                 BufferAllocator allocator, unsigned long copies,
                 std::string &error);

/// The results of the last of `repeat` runs (runRepeatedly), copied out
/// after every other buffer is freed, so that the copies do not double the
/// memory held.
std::vector<arrayio::Array>
takeResults(std::vector<std::unique_ptr<EntryCall>> &calls,
            unsigned long repeat);

/// Runs `entry` `repeat` times, run r on the buffers of calls[r % size]
/// (--rotate: a benchmark's runs then do not find their data in cache), and
/// returns the seconds each run took. Nothing else happens between runs.
/// The results of the last run are in calls[(repeat - 1) % size].
std::vector<double>
runRepeatedly(void (*entry)(void **),
              const std::vector<std::unique_ptr<EntryCall>> &calls,
              unsigned long repeat);

/// Prints `times` on standard error, one `pcc: run I/N: S s` line each.
void printRunTimes(const std::vector<double> &times);

/// Writes `results` as DIR/result0.npy, DIR/result1.npy, ..., creating DIR
/// (and its parents) if needed.
bool saveResults(const std::string &dir,
                 const std::vector<arrayio::Array> &results,
                 std::string &error);

} // namespace pcc::host

#endif // PCC_HOST_HOST_H
