//===- SimNccl.cpp - NCCL between simulated GPUs -------------------------===//
//
// The NCCL functions of CudaDriver.h between the simulated GPUs. Like the
// real library, ncclCommInitAll refuses a GPU listed twice and leaves the
// last GPU it initialized current on the calling thread, and collectives are
// work on the caller's stream that waits for the other ranks (here: a task
// of the simulated stream that meets its peers' tasks).
//
//===----------------------------------------------------------------------===//

#include "Sim.h"

#include "CudaDriver.h"

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

using namespace pcc::runtime::cuda;

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 4;

/// The communicators created together, meeting to exchange buffers.
struct Clique {
  int size;
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  uint64_t generation = 0;
  std::vector<const void *> inputs;

  void meet() {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t mine = generation;
    if (++arrived == size) {
      arrived = 0;
      ++generation;
      changed.notify_all();
      return;
    }
    changed.wait(lock, [&] { return generation != mine; });
  }
};

} // namespace

struct pcc::runtime::cuda::ncclComm {
  Clique *clique;
  int rank;
};

namespace {

size_t sizeOf(int type) {
  switch (type) {
  case 0: // ncclInt8
  case 1: // ncclUint8
    return 1;
  case 2: // ncclInt32
  case 3: // ncclUint32
    return 4;
  case 4: // ncclInt64
  case 5: // ncclUint64
    return 8;
  }
  return 0;
}

template <typename T> T combine(int op, T a, T b) {
  switch (op) {
  case 0:
    return T(a + b);
  case 2:
    return a > b ? a : b;
  default:
    return a < b ? a : b;
  }
}

template <typename T>
void reduce(const std::vector<const void *> &inputs, int op, size_t count,
            void *out) {
  std::vector<T> result(count);
  for (size_t i = 0; i < count; ++i) {
    T acc = static_cast<const T *>(inputs[0])[i];
    for (size_t r = 1; r < inputs.size(); ++r)
      acc = combine(op, acc, static_cast<const T *>(inputs[r])[i]);
    result[i] = acc;
  }
  std::memcpy(out, result.data(), count * sizeof(T));
}

const char *ncclGetErrorString(ncclResult_t result) {
  return result == kSuccess ? "no error"
                            : "invalid argument (run with NCCL_DEBUG=WARN for "
                              "details)";
}

const char *ncclGetLastError(ncclComm_t) { return ""; }

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int count, const int *gpus) {
  std::set<int> distinct;
  for (int r = 0; r < count; ++r)
    if (gpus[r] < 0 || gpus[r] >= pcc::sim::gpuCount() ||
        !distinct.insert(gpus[r]).second)
      return kInvalidArgument;
  auto *clique = new Clique;
  clique->size = count;
  clique->inputs.resize(size_t(count));
  for (int r = 0; r < count; ++r) {
    comms[r] = new ncclComm{clique, r};
    pcc::sim::selectGpu(gpus[r]);
  }
  return kSuccess;
}

ncclResult_t ncclAllReduce(const void *in, void *out, size_t count, int type,
                           int op, ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0 || (op != 0 && op != 2 && op != 3))
    return kInvalidArgument;
  return pcc::sim::enqueue(
             stream,
             [=] {
               Clique &c = *comm->clique;
               c.inputs[size_t(comm->rank)] = in;
               c.meet();
               // Everyone reads all inputs before anyone writes (out may be
               // in).
               std::vector<char> result(count * sizeOf(type));
               switch (type) {
               case 0:
                 reduce<int8_t>(c.inputs, op, count, result.data());
                 break;
               case 1:
                 reduce<uint8_t>(c.inputs, op, count, result.data());
                 break;
               case 2:
                 reduce<int32_t>(c.inputs, op, count, result.data());
                 break;
               case 3:
                 reduce<uint32_t>(c.inputs, op, count, result.data());
                 break;
               case 4:
                 reduce<int64_t>(c.inputs, op, count, result.data());
                 break;
               default:
                 reduce<uint64_t>(c.inputs, op, count, result.data());
                 break;
               }
               c.meet();
               std::memcpy(out, result.data(), result.size());
               return 0;
             }) == 0
             ? kSuccess
             : kInvalidArgument;
}

ncclResult_t ncclAllGather(const void *in, void *out, size_t count, int type,
                           ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0)
    return kInvalidArgument;
  size_t bytes = count * sizeOf(type);
  return pcc::sim::enqueue(stream,
                           [=] {
                             Clique &c = *comm->clique;
                             c.inputs[size_t(comm->rank)] = in;
                             c.meet();
                             for (int r = 0; r < c.size; ++r)
                               std::memcpy(static_cast<char *>(out) +
                                               size_t(r) * bytes,
                                           c.inputs[size_t(r)], bytes);
                             c.meet();
                             return 0;
                           }) == 0
             ? kSuccess
             : kInvalidArgument;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
  *error = kSuccess;
  return comm ? kSuccess : kInvalidArgument;
}

ncclResult_t ncclCommAbort(ncclComm_t) { return kSuccess; }

} // namespace

const Nccl &pcc::runtime::cuda::simulatedNccl() {
  static const Nccl nccl = {
      ncclGetErrorString, ncclGetLastError,      ncclCommInitAll, ncclAllReduce,
      ncclAllGather,      ncclCommGetAsyncError, ncclCommAbort,
  };
  return nccl;
}
