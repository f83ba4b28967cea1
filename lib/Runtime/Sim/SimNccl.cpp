//===- SimNccl.cpp - NCCL between simulated GPUs -------------------------===//
//
// The NCCL functions of CudaDriver.h between the simulated GPUs. Like the
// real library, ncclCommInitAll refuses a GPU listed twice and leaves the
// last GPU it initialized current on the calling thread, and collectives are
// work on the caller's stream that waits for the other ranks (here: a task
// of the simulated stream that meets its peers' tasks). Sends and receives
// meet in per-pair mailboxes, so that only the two ranks of a pair wait for
// each other.
//
//===----------------------------------------------------------------------===//

#include "Sim.h"

#include "CudaDriver.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace pcc::runtime::cuda;

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 4;

/// A send posted to a peer and not yet received.
struct Posted {
  const void *data;
  size_t bytes;
  bool *received;
};

/// The communicators created together, meeting to exchange buffers.
struct Clique {
  int size;
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  uint64_t generation = 0;
  std::vector<const void *> inputs;
  /// Sends by (source, destination) rank, in the order they were posted.
  std::map<std::pair<int, int>, std::deque<Posted>> mailboxes;

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

/// The reduction with `op` of `count` elements of NCCL type `type` over
/// `inputs`, as bytes.
std::vector<char> reduceAny(int type, const std::vector<const void *> &inputs,
                            int op, size_t count) {
  std::vector<char> result(count * sizeOf(type));
  switch (type) {
  case 0:
    reduce<int8_t>(inputs, op, count, result.data());
    break;
  case 1:
    reduce<uint8_t>(inputs, op, count, result.data());
    break;
  case 2:
    reduce<int32_t>(inputs, op, count, result.data());
    break;
  case 3:
    reduce<uint32_t>(inputs, op, count, result.data());
    break;
  case 4:
    reduce<int64_t>(inputs, op, count, result.data());
    break;
  default:
    reduce<uint64_t>(inputs, op, count, result.data());
    break;
  }
  return result;
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
  return pcc::sim::enqueue(stream,
                           [=] {
                             Clique &c = *comm->clique;
                             c.inputs[size_t(comm->rank)] = in;
                             c.meet();
                             // Everyone reads all inputs before anyone writes
                             // (out may be in).
                             std::vector<char> result =
                                 reduceAny(type, c.inputs, op, count);
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

ncclResult_t ncclReduceScatter(const void *in, void *out, size_t recvCount,
                               int type, int op, ncclComm_t comm,
                               CUstream stream) {
  if (!comm || sizeOf(type) == 0 || (op != 0 && op != 2 && op != 3))
    return kInvalidArgument;
  size_t bytes = recvCount * sizeOf(type);
  return pcc::sim::enqueue(
             stream,
             [=] {
               Clique &c = *comm->clique;
               c.inputs[size_t(comm->rank)] = in;
               c.meet();
               // This rank's part of every input.
               std::vector<const void *> parts;
               for (const void *input : c.inputs)
                 parts.push_back(static_cast<const char *>(input) +
                                 size_t(comm->rank) * bytes);
               std::vector<char> result = reduceAny(type, parts, op, recvCount);
               c.meet();
               std::memcpy(out, result.data(), bytes);
               return 0;
             }) == 0
             ? kSuccess
             : kInvalidArgument;
}

ncclResult_t ncclBroadcast(const void *in, void *out, size_t count, int type,
                           int root, ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0 || root < 0 || root >= comm->clique->size)
    return kInvalidArgument;
  size_t bytes = count * sizeOf(type);
  return pcc::sim::enqueue(stream,
                           [=] {
                             Clique &c = *comm->clique;
                             c.inputs[size_t(comm->rank)] = in;
                             c.meet();
                             if (comm->rank != root)
                               std::memcpy(out, c.inputs[size_t(root)], bytes);
                             else if (in != out)
                               std::memmove(out, in, bytes);
                             c.meet();
                             return 0;
                           }) == 0
             ? kSuccess
             : kInvalidArgument;
}

/// The point-to-point operations of one ncclGroupStart/ncclGroupEnd on the
/// calling thread, run as one task of the stream at ncclGroupEnd. Like NCCL,
/// a group's sends and receives progress together, so a rank may receive
/// from a peer that sends to it in the same group.
struct PointToPoint {
  bool send;
  void *data;
  size_t bytes;
  int peer;
  ncclComm_t comm;
  CUstream stream;
};
thread_local int groupDepth = 0;
thread_local std::vector<PointToPoint> pending;

/// Runs `operations` (of one stream and communicator clique): posts every
/// send, then takes each receive from its mailbox as its sender posts it,
/// then waits until the peers have received every send.
void runPointToPoint(const std::vector<PointToPoint> &operations) {
  if (operations.empty())
    return;
  Clique &c = *operations[0].comm->clique;
  int rank = operations[0].comm->rank;
  std::unique_ptr<bool[]> received(new bool[operations.size()]());
  std::unique_lock<std::mutex> lock(c.mutex);
  for (size_t i = 0; i < operations.size(); ++i)
    if (operations[i].send)
      c.mailboxes[{rank, operations[i].peer}].push_back(
          {operations[i].data, operations[i].bytes, &received[i]});
  c.changed.notify_all();
  for (const PointToPoint &operation : operations) {
    if (operation.send)
      continue;
    auto &mailbox = c.mailboxes[{operation.peer, rank}];
    c.changed.wait(lock, [&] { return !mailbox.empty(); });
    Posted posted = mailbox.front();
    mailbox.pop_front();
    // NCCL requires matching sizes; a mismatch would be pcc's bug.
    std::memcpy(operation.data, posted.data,
                std::min(posted.bytes, operation.bytes));
    *posted.received = true;
    c.changed.notify_all();
  }
  for (size_t i = 0; i < operations.size(); ++i)
    if (operations[i].send)
      c.changed.wait(lock, [&] { return received[i]; });
}

ncclResult_t enqueuePointToPoint(std::vector<PointToPoint> operations) {
  if (operations.empty())
    return kSuccess;
  CUstream stream = operations[0].stream;
  for (const PointToPoint &operation : operations)
    if (operation.stream != stream ||
        operation.comm->clique != operations[0].comm->clique)
      return kInvalidArgument;
  auto shared =
      std::make_shared<std::vector<PointToPoint>>(std::move(operations));
  return pcc::sim::enqueue(stream,
                           [shared] {
                             runPointToPoint(*shared);
                             return 0;
                           }) == 0
             ? kSuccess
             : kInvalidArgument;
}

ncclResult_t addPointToPoint(PointToPoint operation) {
  if (!operation.comm || operation.peer < 0 ||
      operation.peer >= operation.comm->clique->size)
    return kInvalidArgument;
  if (groupDepth > 0) {
    pending.push_back(operation);
    return kSuccess;
  }
  return enqueuePointToPoint({operation});
}

ncclResult_t ncclSend(const void *in, size_t count, int type, int peer,
                      ncclComm_t comm, CUstream stream) {
  if (sizeOf(type) == 0)
    return kInvalidArgument;
  return addPointToPoint(
      {true, const_cast<void *>(in), count * sizeOf(type), peer, comm, stream});
}

ncclResult_t ncclRecv(void *out, size_t count, int type, int peer,
                      ncclComm_t comm, CUstream stream) {
  if (sizeOf(type) == 0)
    return kInvalidArgument;
  return addPointToPoint(
      {false, out, count * sizeOf(type), peer, comm, stream});
}

ncclResult_t ncclGroupStart() {
  ++groupDepth;
  return kSuccess;
}

ncclResult_t ncclGroupEnd() {
  if (groupDepth == 0)
    return kInvalidArgument;
  if (--groupDepth > 0)
    return kSuccess;
  std::vector<PointToPoint> operations;
  operations.swap(pending);
  return enqueuePointToPoint(std::move(operations));
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
  *error = kSuccess;
  return comm ? kSuccess : kInvalidArgument;
}

ncclResult_t ncclCommAbort(ncclComm_t) { return kSuccess; }

} // namespace

const Nccl &pcc::runtime::cuda::simulatedNccl() {
  static const Nccl nccl = {
      ncclGetErrorString, ncclGetLastError, ncclCommInitAll,
      ncclAllReduce,      ncclAllGather,    ncclReduceScatter,
      ncclBroadcast,      ncclSend,         ncclRecv,
      ncclGroupStart,     ncclGroupEnd,     ncclCommGetAsyncError,
      ncclCommAbort,
  };
  return nccl;
}
