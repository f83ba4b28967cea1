//===- SimNccl.cpp - NCCL between simulated GPUs -------------------------===//
//
// The NCCL functions of CudaDriver.h between the simulated GPUs. Like the
// real library, ncclCommInitAll refuses a GPU listed twice and leaves the
// last GPU it initialized current on the calling thread, ncclCommInitRank
// blocks until every rank of the communicator has joined (at ncclGroupEnd
// when called inside a group), and collectives are work on the caller's
// stream that waits for the other ranks (here: a task of the simulated
// stream that meets its peers' tasks).
//
// The ranks of a communicator meet in a clique. One made by ncclCommInitAll
// lives in this process: its ranks read each other's buffers, and sends and
// receives meet in per-pair mailboxes, so that only the two ranks of a pair
// wait for each other. One made by ncclCommInitRank may span the processes
// of an MPI job on this machine, as NCCL's shared-memory transport does:
// the unique id names a POSIX shared-memory header (the meeting counters and
// a mailbox per pair of ranks), and each rank copies what it shares into a
// shared segment of its own that its peers map. The names are unlinked
// once every rank has opened them, so that nothing is left behind.
//
//===----------------------------------------------------------------------===//

#include "Sim.h"

#include "Collectives.h"
#include "CudaDriver.h"

#include <fcntl.h>
#include <sched.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace pcc::runtime::cuda;

namespace {

constexpr int kSuccess = 0, kSystemError = 2, kInvalidArgument = 4,
              kInvalidUsage = 5;
/// What a stream task returns when its communicator was aborted: a
/// CUresult (CUDA_ERROR_UNKNOWN), the stream's sticky error.
constexpr int kAbortedTask = 999;

/// One send or receive of a group (ncclGroupStart/ncclGroupEnd).
struct PointToPoint {
  bool send;
  void *data;
  size_t bytes;
  int peer;
  ncclComm_t comm;
  CUstream stream;
};

/// How the ranks of a communicator meet and see each other's buffers. The
/// calls of a collective: publish, meet, input (of any rank), meet.
class Clique {
public:
  explicit Clique(int size) : size(size) {}
  virtual ~Clique() = default;
  const int size;
  /// Makes rank `rank`'s `bytes` at `in` readable by every rank until it
  /// leaves the collective (its second meeting).
  virtual bool publish(int rank, const void *in, size_t bytes) = 0;
  /// Rank `peer`'s published input, as rank `rank` sees it.
  virtual const void *input(int rank, int peer) = 0;
  /// Waits for every rank; false once the communicator was aborted.
  virtual bool meet(int rank) = 0;
  /// Rank `rank`'s sends and receives of one group, which progress
  /// together; false if invalid or aborted.
  virtual bool pointToPoint(int rank,
                            const std::vector<PointToPoint> &operations) = 0;
  virtual void abort() {}
};

/// A send posted to a peer and not yet received.
struct Posted {
  const void *data;
  size_t bytes;
  bool *received;
};

/// The communicators ncclCommInitAll created together, in this process.
class LocalClique final : public Clique {
public:
  explicit LocalClique(int size) : Clique(size), inputs(size_t(size)) {}

  bool publish(int rank, const void *in, size_t) override {
    inputs[size_t(rank)] = in;
    return true;
  }
  const void *input(int, int peer) override { return inputs[size_t(peer)]; }
  bool meet(int) override {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t mine = generation;
    if (++arrived == size) {
      arrived = 0;
      ++generation;
      changed.notify_all();
      return true;
    }
    changed.wait(lock, [&] { return generation != mine; });
    return true;
  }
  /// Posts every send, then takes each receive from its mailbox as its
  /// sender posts it, then waits until the peers have received every send.
  bool pointToPoint(int rank,
                    const std::vector<PointToPoint> &operations) override {
    std::unique_ptr<bool[]> received(new bool[operations.size()]());
    std::unique_lock<std::mutex> lock(mutex);
    for (size_t i = 0; i < operations.size(); ++i)
      if (operations[i].send)
        mailboxes[{rank, operations[i].peer}].push_back(
            {operations[i].data, operations[i].bytes, &received[i]});
    changed.notify_all();
    for (const PointToPoint &operation : operations) {
      if (operation.send)
        continue;
      auto &mailbox = mailboxes[{operation.peer, rank}];
      changed.wait(lock, [&] { return !mailbox.empty(); });
      Posted posted = mailbox.front();
      mailbox.pop_front();
      // NCCL requires matching sizes; a mismatch would be pcc's bug.
      std::memcpy(operation.data, posted.data,
                  std::min(posted.bytes, operation.bytes));
      *posted.received = true;
      changed.notify_all();
    }
    for (size_t i = 0; i < operations.size(); ++i)
      if (operations[i].send)
        changed.wait(lock, [&] { return received[i]; });
    return true;
  }

private:
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  uint64_t generation = 0;
  std::vector<const void *> inputs;
  /// Sends by (source, destination) rank, in the order they were posted.
  std::map<std::pair<int, int>, std::deque<Posted>> mailboxes;
};

//===----------------------------------------------------------------------===//
// Communicators across processes, in shared memory
//===----------------------------------------------------------------------===//

/// The shared header of a communicator made by ncclCommInitRank, then one
/// SharedRank per rank and one SharedPair per (sender, receiver). Fresh
/// shared memory reads as zeros: the state before anyone joined.
struct alignas(64) SharedHeader {
  std::atomic<int32_t> joined;  ///< Ranks that created their segment.
  std::atomic<int32_t> opened;  ///< Ranks that opened every segment.
  std::atomic<int32_t> aborted; ///< Set by ncclCommAbort in any rank.
  alignas(64) std::atomic<int32_t> arrived;
  std::atomic<uint64_t> generation;
};
struct alignas(64) SharedRank {
  /// The size of the rank's segment, which only grows, before a meeting
  /// (or a post) that makes the new size's contents visible.
  std::atomic<uint64_t> segmentBytes;
  /// The rank's GPU, plus one (set before it counts as joined). The
  /// processes of a job simulate the GPUs of one machine.
  std::atomic<int32_t> gpuPlusOne;
};
/// The mailbox of one ordered pair of ranks: one send at a time.
struct alignas(64) SharedPair {
  std::atomic<uint64_t> posted; ///< Sends posted so far.
  std::atomic<uint64_t> taken;  ///< Of which received.
  uint64_t offset = 0;          ///< The last one, in the sender's segment.
  uint64_t bytes = 0;
};
static_assert(std::atomic<uint64_t>::is_always_lock_free,
              "shared counters must be lock-free to work between processes");

/// Enough for any group of a pmap that a test runs, small enough that the
/// mailboxes (sparse, touched only where used) stay a few MiB of address.
constexpr int kMaxSharedRanks = 1024;

/// Bytes of randomness in an id beside the process and serial number, so
/// that no id names what a crashed run left in /dev/shm.
constexpr int kIdRandomBytes = 8;

/// The header and rank table, then the mailboxes.
size_t countersBytes(int size) {
  return sizeof(SharedHeader) + size_t(size) * sizeof(SharedRank);
}
size_t sharedBytes(int size) {
  return countersBytes(size) + size_t(size) * size_t(size) * sizeof(SharedPair);
}

/// Makes `fd` `bytes` long with the first `reserved` bytes allocated, so
/// that a full /dev/shm is an error here rather than a SIGBUS when the
/// pages are first touched.
bool sizeShared(int fd, size_t bytes, size_t reserved) {
  return ftruncate(fd, off_t(bytes)) == 0 &&
         posix_fallocate(fd, 0, off_t(reserved)) == 0;
}

/// A mapping of a shared-memory object, remapped as it grows.
struct Mapping {
  int fd = -1;
  char *data = nullptr;
  size_t bytes = 0;

  /// Maps at least `needed` bytes; false on failure.
  bool cover(size_t needed) {
    if (needed <= bytes)
      return true;
    if (data)
      munmap(data, bytes);
    void *at = mmap(nullptr, needed, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    data = at == MAP_FAILED ? nullptr : static_cast<char *>(at);
    bytes = data ? needed : 0;
    return data != nullptr;
  }
  ~Mapping() {
    if (data)
      munmap(data, bytes);
    if (fd >= 0)
      close(fd);
  }
};

/// One rank's view of a communicator whose ranks may be in several
/// processes (each rank has its own, even beside a peer in this process).
class SharedClique final : public Clique {
public:
  SharedClique(int size, int rank, std::string name)
      : Clique(size), rank(rank), name(std::move(name)),
        segments(size_t(size)) {}
  ~SharedClique() override {
    if (header)
      munmap(header, sharedBytes(size));
  }

  /// Creates or opens the header and creates this rank's segment; false if
  /// the rank already joined or shared memory fails.
  bool join(int gpu) {
    joinDeadline =
        std::chrono::steady_clock::now() + pcc::runtime::collectiveTimeout();
    int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
    if (fd < 0)
      return false;
    // Every rank sets the same size: growing from zero, never truncating.
    // The mailboxes stay sparse: only sends and receives touch them.
    bool sized = sizeShared(fd, sharedBytes(size), countersBytes(size));
    void *at = sized ? mmap(nullptr, sharedBytes(size), PROT_READ | PROT_WRITE,
                            MAP_SHARED, fd, 0)
                     : MAP_FAILED;
    close(fd);
    if (at == MAP_FAILED)
      return false;
    header = static_cast<SharedHeader *>(at);
    Mapping &own = segments[size_t(rank)];
    own.fd = shm_open(segmentName(rank).c_str(), O_CREAT | O_EXCL | O_RDWR,
                      0600);
    if (own.fd < 0)
      return false;
    rankState(rank).gpuPlusOne.store(gpu + 1);
    header->joined.fetch_add(1);
    return true;
  }
  /// Once every rank has joined: opens the peers' segments (then
  /// finishJoin). Like NCCL, fails when two ranks share a GPU.
  ncclResult_t openPeers() {
    if (!waitUntil([&] { return header->joined.load() == size; },
                   joinDeadline))
      return kSystemError;
    // Every rank checks every pair, so that all of them fail alike.
    std::set<int32_t> gpus;
    for (int r = 0; r < size; ++r)
      if (!gpus.insert(rankState(r).gpuPlusOne.load()).second)
        return kInvalidUsage;
    for (int peer = 0; peer < size; ++peer)
      if (peer != rank) {
        segments[size_t(peer)].fd =
            shm_open(segmentName(peer).c_str(), O_RDWR, 0600);
        if (segments[size_t(peer)].fd < 0)
          return kSystemError;
      }
    header->opened.fetch_add(1);
    return kSuccess;
  }
  /// Once every rank has opened every segment: unlinks the names.
  bool finishJoin() {
    if (!waitUntil([&] { return header->opened.load() == size; },
                   joinDeadline))
      return false;
    shm_unlink(segmentName(rank).c_str());
    if (rank == 0)
      shm_unlink(name.c_str());
    return true;
  }
  /// After a failed join: unlinks this rank's segment if it made one and
  /// the header, and tells the peers, which then fail at once instead of
  /// at the timeout (the communicator is unusable).
  void abandon() {
    if (segments[size_t(rank)].fd >= 0)
      shm_unlink(segmentName(rank).c_str());
    shm_unlink(name.c_str());
    abort();
  }

  bool publish(int, const void *in, size_t bytes) override {
    // Never empty, so that a published input is never null.
    if (!grow(std::max<size_t>(bytes, 64)))
      return false;
    std::memcpy(segments[size_t(rank)].data, in, bytes);
    return true;
  }
  const void *input(int, int peer) override {
    Mapping &segment = segments[size_t(peer)];
    return segment.cover(rankState(peer).segmentBytes.load())
               ? segment.data
               : nullptr;
  }
  bool meet(int) override {
    uint64_t mine = header->generation.load();
    if (header->arrived.fetch_add(1) + 1 == size) {
      header->arrived.store(0);
      header->generation.fetch_add(1);
      return true;
    }
    return waitUntil([&] { return header->generation.load() != mine; });
  }
  /// Copies every send into this rank's segment and posts it in its pair's
  /// mailbox, then takes each receive as its sender posts it, then waits
  /// until the peers have taken every send. One send per peer and group.
  bool pointToPoint(int,
                    const std::vector<PointToPoint> &operations) override {
    size_t total = 0;
    std::set<int> peers;
    for (const PointToPoint &operation : operations)
      if (operation.send) {
        if (!peers.insert(operation.peer).second)
          return false;
        total += operation.bytes;
      }
    if (!grow(total))
      return false;
    std::vector<uint64_t> posted;
    size_t offset = 0;
    for (const PointToPoint &operation : operations) {
      if (!operation.send)
        continue;
      std::memcpy(segments[size_t(rank)].data + offset, operation.data,
                  operation.bytes);
      SharedPair &pair = pairState(rank, operation.peer);
      pair.offset = offset;
      pair.bytes = operation.bytes;
      posted.push_back(pair.posted.fetch_add(1) + 1);
      offset += operation.bytes;
    }
    for (const PointToPoint &operation : operations) {
      if (operation.send)
        continue;
      SharedPair &pair = pairState(operation.peer, rank);
      if (!waitUntil([&] { return pair.posted.load() > pair.taken.load(); }))
        return false;
      Mapping &segment = segments[size_t(operation.peer)];
      if (!segment.cover(pair.offset + pair.bytes))
        return false;
      std::memcpy(operation.data, segment.data + pair.offset,
                  std::min<size_t>(pair.bytes, operation.bytes));
      pair.taken.fetch_add(1);
    }
    size_t next = 0;
    for (const PointToPoint &operation : operations) {
      if (!operation.send)
        continue;
      SharedPair &pair = pairState(rank, operation.peer);
      uint64_t mine = posted[next++];
      if (!waitUntil([&] { return pair.taken.load() >= mine; }))
        return false;
    }
    return true;
  }
  void abort() override {
    if (header)
      header->aborted.store(1);
  }
  int gpu() { return rankState(rank).gpuPlusOne.load() - 1; }

private:
  std::string segmentName(int r) const {
    return name + "-" + std::to_string(r);
  }
  SharedRank &rankState(int r) {
    return reinterpret_cast<SharedRank *>(header + 1)[r];
  }
  SharedPair &pairState(int from, int to) {
    auto *pairs = reinterpret_cast<SharedPair *>(
        reinterpret_cast<SharedRank *>(header + 1) + size);
    return pairs[size_t(from) * size_t(size) + size_t(to)];
  }
  /// Makes this rank's segment at least `bytes` large.
  bool grow(size_t bytes) {
    Mapping &own = segments[size_t(rank)];
    if (bytes <= own.bytes)
      return true;
    if (!sizeShared(own.fd, bytes, bytes) || !own.cover(bytes))
      return false;
    rankState(rank).segmentBytes.store(bytes);
    return true;
  }
  /// Waits until `done()`: spins briefly, then naps, since peers in other
  /// processes wake nobody. False once aborted or after the collective
  /// timeout (a peer process that died).
  template <typename Pred> bool waitUntil(Pred done) {
    return waitUntil(done, std::chrono::steady_clock::now() +
                               pcc::runtime::collectiveTimeout());
  }
  template <typename Pred>
  bool waitUntil(Pred done, std::chrono::steady_clock::time_point deadline) {
    for (int round = 0; !done(); ++round) {
      if (header->aborted.load() ||
          (round % 64 == 0 && std::chrono::steady_clock::now() >= deadline))
        return false;
      if (round < 1000)
        sched_yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return true;
  }

  int rank;
  std::string name;
  SharedHeader *header = nullptr;
  /// Joining (every step of it) ends with an error past this.
  std::chrono::steady_clock::time_point joinDeadline;
  std::vector<Mapping> segments;
};

} // namespace

struct pcc::runtime::cuda::ncclComm {
  /// Shared by the ranks of a LocalClique, one per rank of a SharedClique.
  std::shared_ptr<Clique> clique;
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

/// NCCL's texts for the results the simulator returns.
const char *ncclGetErrorString(ncclResult_t result) {
  switch (result) {
  case kSuccess:
    return "no error";
  case kSystemError:
    return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
  case kInvalidUsage:
    return "invalid usage (run with NCCL_DEBUG=WARN for details)";
  }
  return "invalid argument (run with NCCL_DEBUG=WARN for details)";
}

const char *ncclGetLastError(ncclComm_t) { return ""; }

/// With NCCL_DEBUG=INFO, says that a communicator is ready, as NCCL does
/// (tests read which communicators a run made).
void reportInit(const char *how, ncclComm_t comm, int count, int gpu) {
  const char *debug = std::getenv("NCCL_DEBUG");
  if (!debug || strcasecmp(debug, "INFO") != 0)
    return;
  std::fprintf(stderr,
               "pcc-sim:%d [%d] NCCL INFO %s: comm %p rank %d nranks %d "
               "cudaDev %d - Init COMPLETE\n",
               int(getpid()), gpu, how, static_cast<void *>(comm), comm->rank,
               count, gpu);
}

/// Whether NCCL would log its calls: NCCL_DEBUG=INFO, and COLL among the
/// subsystems of NCCL_DEBUG_SUBSYS (a comma-separated list, ALL for every
/// one, all but those listed after a leading ^; by default INIT, BOOTSTRAP
/// and ENV).
bool logsCalls() {
  static const bool logs = [] {
    const char *debug = std::getenv("NCCL_DEBUG");
    const char *list = std::getenv("NCCL_DEBUG_SUBSYS");
    if (!debug || strcasecmp(debug, "INFO") != 0 || !list)
      return false;
    bool except = *list == '^';
    std::string subsystems(list + except);
    bool named = false;
    for (size_t start = 0; start <= subsystems.size();) {
      size_t end = std::min(subsystems.find(',', start), subsystems.size());
      std::string subsystem = subsystems.substr(start, end - start);
      named |= !strcasecmp(subsystem.c_str(), "COLL") ||
               !strcasecmp(subsystem.c_str(), "ALL");
      start = end + 1;
    }
    return named != except;
  }();
  return logs;
}

/// Under logsCalls(), says which call a rank made, as NCCL does (tests read
/// which NCCL calls a collective became). `root` is the root of a
/// broadcast, the peer of a send or receive, and 0 otherwise; `op` is -1
/// where the call takes none.
void reportCall(const char *name, ncclComm_t comm, size_t count, int type,
                int op, int root) {
  if (!logsCalls())
    return;
  std::fprintf(stderr,
               "pcc-sim:%d NCCL INFO %s: count %zu datatype %d op %d root %d "
               "comm %p rank %d [nranks=%d]\n",
               int(getpid()), name, count, type, op, root,
               static_cast<void *>(comm), comm ? comm->rank : -1,
               comm ? comm->clique->size : 0);
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int count, const int *gpus) {
  std::set<int> distinct;
  for (int r = 0; r < count; ++r)
    if (gpus[r] < 0 || gpus[r] >= pcc::sim::gpuCount() ||
        !distinct.insert(gpus[r]).second)
      return kInvalidArgument;
  auto clique = std::make_shared<LocalClique>(count);
  for (int r = 0; r < count; ++r) {
    comms[r] = new ncclComm{clique, r};
    pcc::sim::selectGpu(gpus[r]);
    reportInit("ncclCommInitAll", comms[r], count, gpus[r]);
  }
  return kSuccess;
}

/// The ids name shared-memory objects: this process and a serial number.
constexpr char kIdPrefix[] = "/pcc-sim-nccl-";

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  static std::atomic<uint64_t> serial{0};
  if (!id)
    return kInvalidArgument;
  unsigned char random[kIdRandomBytes];
  if (getrandom(random, sizeof(random), 0) != ssize_t(sizeof(random)))
    return kSystemError;
  std::memset(id->internal, 0, sizeof(id->internal));
  int at = std::snprintf(id->internal, sizeof(id->internal), "%s%d-%llu-",
                         kIdPrefix, int(getpid()),
                         (unsigned long long)++serial);
  for (unsigned char byte : random)
    at += std::snprintf(id->internal + at, sizeof(id->internal) - size_t(at),
                        "%02x", byte);
  return kSuccess;
}

thread_local int groupDepth = 0;
/// The point-to-point operations of the calling thread's open group.
thread_local std::vector<PointToPoint> pending;
/// The communicators ncclCommInitRank made in the calling thread's open
/// group, which finish joining at ncclGroupEnd.
thread_local std::vector<ncclComm_t> joining;

/// Finishes the joins of `comms` (made on this thread), which wait for the
/// ranks of other threads and processes, in steps that each wait for all.
ncclResult_t finishJoins(const std::vector<ncclComm_t> &comms) {
  auto clique = [](ncclComm_t comm) -> SharedClique & {
    return static_cast<SharedClique &>(*comm->clique);
  };
  ncclResult_t result = kSuccess;
  for (ncclComm_t comm : comms)
    if (result == kSuccess)
      result = clique(comm).openPeers();
  for (ncclComm_t comm : comms)
    if (result == kSuccess && !clique(comm).finishJoin())
      result = kSystemError;
  for (ncclComm_t comm : comms)
    if (result != kSuccess)
      clique(comm).abandon();
    else
      reportInit("ncclCommInitRank", comm, comm->clique->size,
                 clique(comm).gpu());
  return result;
}

/// Each rank of a communicator across processes holds a descriptor per peer
/// (to map its segment as it grows): a process with 32 ranks of a group of
/// 64 holds 2048. Raises the soft limit on open files to the hard one,
/// once, as MPI launchers do for their jobs.
void raiseFileLimit() {
  static std::once_flag once;
  std::call_once(once, [] {
    rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
        limit.rlim_cur < limit.rlim_max) {
      limit.rlim_cur = limit.rlim_max;
      setrlimit(RLIMIT_NOFILE, &limit);
    }
  });
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int count, ncclUniqueId id,
                              int rank) {
  if (!comm || count < 1 || count > kMaxSharedRanks || rank < 0 ||
      rank >= count || !memchr(id.internal, 0, sizeof(id.internal)) ||
      std::strncmp(id.internal, kIdPrefix, sizeof(kIdPrefix) - 1) != 0)
    return kInvalidArgument;
  int gpu = pcc::sim::currentGpu();
  if (gpu < 0)
    return kInvalidUsage;
  raiseFileLimit();
  auto clique = std::make_shared<SharedClique>(count, rank, id.internal);
  if (!clique->join(gpu)) {
    clique->abandon();
    return kSystemError;
  }
  *comm = new ncclComm{clique, rank};
  if (groupDepth > 0) {
    joining.push_back(*comm);
    return kSuccess;
  }
  return finishJoins({*comm});
}

/// Unlike NCCL, does not wait for the communicator's work: the caller must
/// have synchronized its streams.
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (!comm)
    return kInvalidArgument;
  delete comm;
  return kSuccess;
}

/// Queues `task` (a collective of rank `comm`) on `stream`.
template <typename Task>
ncclResult_t enqueueCollective(ncclComm_t comm, CUstream stream, Task task) {
  return pcc::sim::enqueue(stream,
                           [=] {
                             if (task(*comm->clique, comm->rank))
                               return 0;
                             // The peers stop waiting for this rank.
                             comm->clique->abort();
                             return kAbortedTask;
                           }) == 0
             ? kSuccess
             : kInvalidArgument;
}

ncclResult_t ncclAllReduce(const void *in, void *out, size_t count, int type,
                           int op, ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0 || (op != 0 && op != 2 && op != 3))
    return kInvalidArgument;
  reportCall("AllReduce", comm, count, type, op, 0);
  size_t bytes = count * sizeOf(type);
  return enqueueCollective(comm, stream, [=](Clique &c, int rank) {
    if (!c.publish(rank, in, bytes) || !c.meet(rank))
      return false;
    std::vector<const void *> inputs;
    for (int r = 0; r < c.size; ++r)
      inputs.push_back(c.input(rank, r));
    if (std::count(inputs.begin(), inputs.end(), nullptr))
      return false;
    // Everyone reads all inputs before anyone writes (out may be in).
    std::vector<char> result = reduceAny(type, inputs, op, count);
    if (!c.meet(rank))
      return false;
    std::memcpy(out, result.data(), result.size());
    return true;
  });
}

ncclResult_t ncclAllGather(const void *in, void *out, size_t count, int type,
                           ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0)
    return kInvalidArgument;
  reportCall("AllGather", comm, count, type, -1, 0);
  size_t bytes = count * sizeOf(type);
  return enqueueCollective(comm, stream, [=](Clique &c, int rank) {
    if (!c.publish(rank, in, bytes) || !c.meet(rank))
      return false;
    // Gathered first: `out` may hold this rank's input.
    std::vector<char> gathered(size_t(c.size) * bytes);
    for (int r = 0; r < c.size; ++r) {
      const void *input = c.input(rank, r);
      if (!input)
        return false;
      std::memcpy(gathered.data() + size_t(r) * bytes, input, bytes);
    }
    if (!c.meet(rank))
      return false;
    std::memcpy(out, gathered.data(), gathered.size());
    return true;
  });
}

ncclResult_t ncclReduceScatter(const void *in, void *out, size_t recvCount,
                               int type, int op, ncclComm_t comm,
                               CUstream stream) {
  if (!comm || sizeOf(type) == 0 || (op != 0 && op != 2 && op != 3))
    return kInvalidArgument;
  reportCall("ReduceScatter", comm, recvCount, type, op, 0);
  size_t bytes = recvCount * sizeOf(type);
  return enqueueCollective(comm, stream, [=](Clique &c, int rank) {
    if (!c.publish(rank, in, bytes * size_t(c.size)) || !c.meet(rank))
      return false;
    // This rank's part of every input.
    std::vector<const void *> parts;
    for (int r = 0; r < c.size; ++r) {
      const char *input = static_cast<const char *>(c.input(rank, r));
      if (!input)
        return false;
      parts.push_back(input + size_t(rank) * bytes);
    }
    std::vector<char> result = reduceAny(type, parts, op, recvCount);
    if (!c.meet(rank))
      return false;
    std::memcpy(out, result.data(), bytes);
    return true;
  });
}

ncclResult_t ncclBroadcast(const void *in, void *out, size_t count, int type,
                           int root, ncclComm_t comm, CUstream stream) {
  if (!comm || sizeOf(type) == 0 || root < 0 || root >= comm->clique->size)
    return kInvalidArgument;
  reportCall("Broadcast", comm, count, type, -1, root);
  size_t bytes = count * sizeOf(type);
  return enqueueCollective(comm, stream, [=](Clique &c, int rank) {
    // Only the root's buffer is read (NCCL ignores the others' `in`).
    if (!c.publish(rank, in, rank == root ? bytes : 0) || !c.meet(rank))
      return false;
    const void *source = c.input(rank, root);
    if (!source)
      return false;
    if (source != out)
      std::memmove(out, source, bytes);
    return c.meet(rank);
  });
}

/// Runs `operations` (of one communicator and stream) as one task of the
/// stream.
ncclResult_t enqueuePointToPoint(std::vector<PointToPoint> operations) {
  if (operations.empty())
    return kSuccess;
  ncclComm_t comm = operations[0].comm;
  CUstream stream = operations[0].stream;
  for (const PointToPoint &operation : operations)
    if (operation.stream != stream || operation.comm != comm)
      return kInvalidArgument;
  auto shared =
      std::make_shared<std::vector<PointToPoint>>(std::move(operations));
  return enqueueCollective(comm, stream, [shared](Clique &c, int rank) {
    return c.pointToPoint(rank, *shared);
  });
}

/// Like NCCL, a group's sends and receives progress together, so a rank
/// may receive from a peer that sends to it in the same group.
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
  reportCall("Send", comm, count, type, -1, peer);
  return addPointToPoint(
      {true, const_cast<void *>(in), count * sizeOf(type), peer, comm, stream});
}

ncclResult_t ncclRecv(void *out, size_t count, int type, int peer,
                      ncclComm_t comm, CUstream stream) {
  if (sizeOf(type) == 0)
    return kInvalidArgument;
  reportCall("Recv", comm, count, type, -1, peer);
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
  std::vector<ncclComm_t> comms;
  comms.swap(joining);
  std::vector<PointToPoint> operations;
  operations.swap(pending);
  if (ncclResult_t result = finishJoins(comms); result != kSuccess)
    return result;
  return enqueuePointToPoint(std::move(operations));
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
  *error = kSuccess;
  return comm ? kSuccess : kInvalidArgument;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
  if (comm)
    comm->clique->abort();
  return kSuccess;
}

} // namespace

const Nccl &pcc::runtime::cuda::simulatedNccl() {
  static const Nccl nccl = {
      ncclGetErrorString, ncclGetLastError, ncclCommInitAll,
      ncclGetUniqueId,    ncclCommInitRank, ncclCommDestroy,
      ncclAllReduce,      ncclAllGather,    ncclReduceScatter,
      ncclBroadcast,      ncclSend,         ncclRecv,
      ncclGroupStart,     ncclGroupEnd,     ncclCommGetAsyncError,
      ncclCommAbort,
  };
  return nccl;
}
