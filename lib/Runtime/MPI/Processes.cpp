//===- Processes.cpp - Devices split over the processes of an MPI job -----===//
//
// Finds the job, loads libpcc_mpi.so (MpiShim.c) and wraps its calls, one
// thread at a time; lays out the memory the machine's processes share (the
// error flag, the mailboxes). Implements pcc_processes_init,
// pcc_process_rank, pcc_process_count, pcc_broadcast and pcc_share_output.
//
//===----------------------------------------------------------------------===//

#include "Processes.h"

#include "RuntimeError.h"
#include "Sync.h"
#include "pcc/Runtime/pcc_runtime.h"

#include <dlfcn.h>

#include <string>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unordered_map>
#include <vector>

namespace pcc::runtime {
namespace {

/// The functions of MpiShim.c.
struct MpiShim {
  int (*init)(int *rank, int *size, int *tagLimit);
  int (*finalize)();
  void (*abort)(int code);
  void (*errorString)(int code, char *text, int size);
  int (*broadcast)(void *data, int64_t bytes);
  int (*allGather)(void *data, const int64_t *offsets);
  int (*requestBytes)();
  int (*send)(const void *data, int64_t bytes, int peer, int tag,
              void *request);
  int (*receive)(void *data, int64_t bytes, int peer, int tag, void *request);
  int (*test)(void *request, int *done, int64_t *bytes);
  int (*machine)(int *ranks, int *size);
  int (*machineMemory)(int64_t bytes, void **base);
};

ProcessLayout layout;
MpiShim mpi;
/// MPI is initialized with MPI_THREAD_SERIALIZED: calls from several device
/// threads take turns, under this lock. A spin lock: the calls under it are
/// short (nonblocking ones, and tests), and an uncontended std::mutex cost
/// 7 % of a small psum between two processes (its unlock most).
std::atomic<bool> mpiLocked{false};

/// "MPI_ERR_...: text" for an MPI error code.
std::string mpiError(int code) {
  char text[512];
  mpi.errorString(code, text, sizeof(text));
  return text;
}

/// Where libpcc_mpi.so is: PCC_MPI_SHIM, or where the build put it.
std::string shimPath() {
  if (const char *path = std::getenv("PCC_MPI_SHIM"))
    return path;
#ifdef PCC_MPI_SHIM_PATH
  return PCC_MPI_SHIM_PATH;
#else
  return "";
#endif
}

/// Loads the shim; returns an error, or "" on success.
std::string loadShim() {
  std::string path = shimPath();
  if (path.empty())
    return "this pcc was built without MPI (no mpi.h when it was built: "
           "install libopenmpi-dev and rebuild), so it cannot run under "
           "mpirun";
  // RTLD_GLOBAL: Open MPI's own plugins, which it loads with dlopen, look
  // for libmpi's symbols in the global scope.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle)
    return std::string("cannot load MPI (") + dlerror() +
           "): install Open MPI (openmpi-bin), or set PCC_MPI_SHIM to "
           "libpcc_mpi.so";
  auto load = [&](auto &function, const char *name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
        dlsym(handle, name));
    return function != nullptr;
  };
  if (!load(mpi.init, "pcc_mpi_init") ||
      !load(mpi.finalize, "pcc_mpi_finalize") ||
      !load(mpi.abort, "pcc_mpi_abort") ||
      !load(mpi.errorString, "pcc_mpi_error_string") ||
      !load(mpi.broadcast, "pcc_mpi_broadcast") ||
      !load(mpi.allGather, "pcc_mpi_all_gather") ||
      !load(mpi.requestBytes, "pcc_mpi_request_bytes") ||
      !load(mpi.send, "pcc_mpi_send") ||
      !load(mpi.receive, "pcc_mpi_receive") ||
      !load(mpi.test, "pcc_mpi_test") ||
      !load(mpi.machine, "pcc_mpi_machine") ||
      !load(mpi.machineMemory, "pcc_mpi_machine_memory"))
    return path + " is not pcc's MPI shim (a function is missing)";
  if (size_t(mpi.requestBytes()) > sizeof(Message::request))
    return path + ": this MPI's requests are larger than pcc expects";
  return "";
}

/// The number of processes the launcher started, 0 if not launched, or -1
/// if launched but the launcher does not say.
int64_t launchedProcesses() {
  if (const char *size = std::getenv("OMPI_COMM_WORLD_SIZE"))
    return std::atoll(size);
  if (std::getenv("PMIX_RANK"))
    return -1;
  return 0;
}

void finalizeAtExit() {
  MpiLock lock;
  mpi.finalize();
}

/// Ends the run on an MPI failure.
[[noreturn]] void mpiFailed(int code, const char *where) {
  failRun(std::string("MPI failed in ") + where + ": " + mpiError(code));
}

/// A box of a mailbox: the number of the message it holds (0: none yet),
/// its size, and its bytes.
struct alignas(64) Box {
  std::atomic<uint64_t> number;
  int64_t bytes;
  alignas(64) char data[kMailboxBytes];
};

} // namespace

/// One way of a pair of mailboxes.
struct Mailboxes::Way {
  Box boxes[2];
};

namespace {

/// A pair of mailboxes between two processes, taken by the first group
/// that asks (owner: its key): ways[0] from the process with the lower
/// place on the machine, ways[1] to it.
struct alignas(64) Lane {
  std::atomic<uint64_t> owner;
  Mailboxes::Way ways[2];
};
// The memory is shared between processes, zeroed by MPI's first process.
static_assert(std::atomic<uint64_t>::is_always_lock_free);

/// At most this much shared memory for the mailboxes (with many
/// processes, fewer than kMailboxesPerPair pairs between two of them).
constexpr int64_t kMailboxMemory = 16 << 20;

/// What the machine's processes share: whether one of them has reported
/// an error; after it, the mailboxes of every pair of them.
struct alignas(64) SharedMemory {
  std::atomic<bool> errorReported;
  Lane *lanes() { return reinterpret_cast<Lane *>(this + 1); }
};
static_assert(std::atomic<bool>::is_always_lock_free);

/// The job's processes on this machine: each process's place here (-1
/// when on another machine), and the memory they share (none with
/// PCC_SHARED_MEMORY=0, alone on the machine, or where MPI gives none).
struct Machine {
  std::vector<int64_t> place;
  int64_t size = 0;
  int64_t lanesPerPair = 0;
  SharedMemory *shared = nullptr;
};
Machine machine;

/// Finds the job's processes on this machine (layout.localRank and
/// localCount) and the memory they share; returns an error, or "".
std::string openMachine() {
  std::vector<int> ranks(size_t(layout.count));
  int size = 0;
  if (int code = mpi.machine(ranks.data(), &size))
    return "cannot find the processes on this machine: " + mpiError(code);
  machine.size = size;
  machine.place.assign(size_t(layout.count), -1);
  for (int k = 0; k < size; ++k)
    machine.place[size_t(ranks[size_t(k)])] = k;
  layout.localRank = machine.place[size_t(layout.rank)];
  layout.localCount = machine.size;
  int64_t pairs = machine.size * (machine.size - 1) / 2;
  const char *wanted = std::getenv("PCC_SHARED_MEMORY");
  if (wanted && std::strcmp(wanted, "0") && std::strcmp(wanted, "1"))
    return std::string("PCC_SHARED_MEMORY must be 1 (processes on one machine "
                       "exchange data in shared memory) or 0 (through MPI), "
                       "not '") +
           wanted + "'";
  bool share = pairs > 0 && !(wanted && *wanted == '0');
  if (share)
    machine.lanesPerPair = std::min<int64_t>(
        kMailboxesPerPair, kMailboxMemory / (pairs * int64_t(sizeof(Lane))));
  int64_t bytes = share
                      ? int64_t(sizeof(SharedMemory)) +
                            pairs * machine.lanesPerPair * int64_t(sizeof(Lane))
                      : 0;
  void *base = nullptr;
  if (int code = mpi.machineMemory(bytes, &base))
    return "cannot share memory between the processes on this machine: " +
           mpiError(code);
  machine.shared = static_cast<SharedMemory *>(base);
  if (!machine.shared)
    machine.lanesPerPair = 0;
  return "";
}

} // namespace

char *Mailboxes::outbox(uint64_t number, const char *where) const {
  // The box held message number - 2. The other process had read it when it
  // wrote its message number - 1 (at its next collective of the group),
  // which this one has received (acquiring its reads), or it would not be
  // at message number: the box is free.
  if (number > 1 && in->boxes[(number - 1) % 2].number.load(
                        std::memory_order_relaxed) != number - 1)
    failRun(std::string("internal error in ") + where +
            ": a mailbox between processes is still full; please report it");
  return out->boxes[number % 2].data;
}

void Mailboxes::send(uint64_t number, int64_t bytes) const {
  Box &box = out->boxes[number % 2];
  box.bytes = bytes;
  box.number.store(number, std::memory_order_release);
}

const char *Mailboxes::inbox(uint64_t number) const {
  return in->boxes[number % 2].data;
}

bool Mailboxes::received(uint64_t number, int64_t &bytes) const {
  const Box &box = in->boxes[number % 2];
  if (box.number.load(std::memory_order_acquire) != number)
    return false;
  bytes = box.bytes;
  return true;
}

Mailboxes mailboxesWith(int64_t peer, uint64_t key) {
  Mailboxes mailboxes;
  if (!machine.lanesPerPair || key == 0 || peer < 0 || peer >= layout.count ||
      machine.place[size_t(peer)] < 0)
    return mailboxes;
  int64_t own = machine.place[size_t(layout.rank)];
  int64_t other = machine.place[size_t(peer)];
  int64_t low = std::min(own, other), high = std::max(own, other);
  int64_t pair = low * machine.size - low * (low + 1) / 2 + (high - low - 1);
  Lane *lanes = machine.shared->lanes() + pair * machine.lanesPerPair;
  // Both processes probe the lanes in the same order, and an owner once
  // set never changes: they stop at the same lane, or find none.
  for (int64_t k = 0; k < machine.lanesPerPair; ++k) {
    int64_t index =
        int64_t((key + uint64_t(k)) % uint64_t(machine.lanesPerPair));
    Lane &lane = lanes[index];
    uint64_t owner = 0;
    if (lane.owner.compare_exchange_strong(owner, key,
                                           std::memory_order_acq_rel) ||
        owner == key) {
      mailboxes.out = &lane.ways[own < other ? 0 : 1];
      mailboxes.in = &lane.ways[own < other ? 1 : 0];
      mailboxes.lane = index;
      return mailboxes;
    }
  }
  return mailboxes;
}

bool firstToReport() {
  return !machine.shared || !machine.shared->errorReported.exchange(true);
}

const ProcessLayout &processLayout() { return layout; }

void localDevices(int64_t devices, int64_t &first, int64_t &count) {
  int64_t processes = layout.count;
  if (devices % processes != 0)
    failRun("a pmap runs on " + std::to_string(devices) +
            " devices, which do not split over " + std::to_string(processes) +
            " processes: run with a number of processes that divides " +
            std::to_string(devices) + " (mpirun -np P)");
  count = devices / processes;
  first = layout.rank * count;
}

MpiLock::MpiLock() {
  // Spins, then yields, then naps: the blocking calls (at the start and
  // end of a run) can hold it for long.
  for (int attempt = 0; mpiLocked.load(std::memory_order_relaxed) ||
                        mpiLocked.exchange(true, std::memory_order_acquire);
       ++attempt) {
    if (attempt < 64)
      cpuRelax();
    else if (attempt < 1024)
      yieldThread();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}
MpiLock::~MpiLock() { mpiLocked.store(false, std::memory_order_release); }

void postSend(Message &message, const void *data, int64_t bytes, int64_t peer,
              int64_t tag, const char *where, const MpiLock &) {
  message.bytes = bytes;
  message.done = false;
  if (int code = mpi.send(data, bytes, int(peer), int(tag), message.request))
    mpiFailed(code, where);
}

void postReceive(Message &message, void *data, int64_t bytes, int64_t peer,
                 int64_t tag, const char *where, const MpiLock &) {
  message.bytes = bytes;
  message.done = false;
  if (int code = mpi.receive(data, bytes, int(peer), int(tag), message.request))
    mpiFailed(code, where);
}

bool testMessage(Message &message, const char *where, const MpiLock &) {
  if (message.done)
    return true;
  int done = 0;
  if (int code = mpi.test(message.request, &done, &message.arrived))
    mpiFailed(code, where);
  message.done = done != 0;
  return message.done;
}

void allGatherBlocks(void *data, const int64_t *offsets) {
  MpiLock lock;
  if (int code = mpi.allGather(data, offsets))
    mpiFailed(code, "sharing the results of a pmap between processes");
}

} // namespace pcc::runtime

using namespace pcc::runtime;

extern "C" int32_t pcc_processes_init(char *message, size_t size) {
  static bool initialized = false;
  static std::string failure;
  if (!initialized) {
    initialized = true;
    int64_t launched = launchedProcesses();
    if (launched != 0 && launched != 1) {
      failure = loadShim();
      int rank = 0, count = 1, tagLimit = 0;
      if (failure.empty()) {
        if (int code = mpi.init(&rank, &count, &tagLimit))
          failure = "cannot start MPI: " + mpiError(code);
      }
      if (failure.empty()) {
        layout = {rank, count, tagLimit};
        std::atexit(finalizeAtExit);
        failure = openMachine();
      }
    }
  }
  if (!failure.empty() && size > 0)
    std::snprintf(message, size, "%s", failure.c_str());
  return failure.empty() ? 0 : 1;
}

extern "C" int64_t pcc_process_rank(void) { return layout.rank; }

extern "C" int64_t pcc_process_count(void) { return layout.count; }

extern "C" int32_t pcc_broadcast(void *data, int64_t bytes) {
  if (layout.count == 1)
    return 0;
  MpiLock lock;
  if (int code = mpi.broadcast(data, bytes)) {
    reportError("MPI failed in a broadcast: " + mpiError(code));
    return 1;
  }
  return 0;
}

namespace {
/// The ranked memref descriptor of MLIR's C interface.
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[]; // sizes[rank], then strides[rank]
};
} // namespace

namespace {
/// A uniform output whose other processes' slices are still to be filled
/// from this process's [first, end) (pcc_share_output).
struct PendingFill {
  int64_t sliceBytes, slices, first, end;
};

/// Copies the slices of the output at `data` outside [first, end) from
/// its slice at `first`.
void fillSlices(char *data, const PendingFill &fill) {
  for (int64_t slice = 0; slice < fill.slices; ++slice)
    if (slice * fill.sliceBytes < fill.first ||
        slice * fill.sliceBytes >= fill.end)
      std::memcpy(data + slice * fill.sliceBytes, data + fill.first,
                  size_t(fill.sliceBytes));
}

/// The fills left for pcc_complete_outputs, by output: a later run into the
/// same buffer replaces its fill. Only the thread that runs the entry
/// touches it.
std::unordered_map<char *, PendingFill> pendingFills;

/// Copies of fewer bytes are cheaper made at once than remembered.
constexpr int64_t kDeferredFillBytes = 64 << 10;
} // namespace

extern "C" void pcc_complete_outputs(void) {
  for (auto &[data, fill] : pendingFills)
    fillSlices(data, fill);
  pendingFills.clear();
}

extern "C" void pcc_share_output(int64_t devices, int64_t rank,
                                 void *descriptor, int64_t elemBytes,
                                 int32_t uniform, int32_t returned) {
  if (layout.count == 1)
    return;
  auto *memref = static_cast<const Descriptor *>(descriptor);
  const int64_t *sizes = memref->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t elements = 1;
  for (int64_t k = rank - 1; k >= 0; --k) {
    if (sizes[k] != 1 && strides[k] != elements)
      failRun("pcc_share_output: a pmap output is not contiguous");
    elements *= sizes[k];
  }
  // The output stacks one slice per index of the outermost pmap (its
  // leading dimension), written by the device of that index whose inner
  // coordinates are all 0 (pcc-outline-pmaps): slices are owned by
  // processes in order, each a run of them, some none.
  int64_t slices = rank > 0 ? sizes[0] : 0;
  if (slices <= 0 || devices % slices != 0 || devices % layout.count != 0)
    failRun("pcc_share_output: a pmap output does not hold one slice per "
            "index of its pmap");
  int64_t sliceBytes = elements / slices * elemBytes;
  int64_t devicesPerSlice = devices / slices;
  int64_t devicesPerProcess = devices / layout.count;
  // Slice s is written by process s * devicesPerSlice / devicesPerProcess,
  // so process p's slices begin at the first slice written by p or a later
  // process. (Computed, not tabulated: this runs after every pmap, and a
  // small one takes less than a microsecond.)
  auto offset = [&](int64_t p) {
    int64_t first =
        (p * devicesPerProcess + devicesPerSlice - 1) / devicesPerSlice;
    return std::min(first, slices) * sliceBytes;
  };
  char *data = memref->aligned + memref->offset * elemBytes;
  // Every device yielded the same value: a process that wrote a slice has
  // them all, unless some process wrote none (then it must receive): every
  // process writes one when there are at least as many slices as
  // processes.
  if (uniform && slices >= layout.count) {
    // Into the slices of the other processes only: this one's are written.
    PendingFill fill{sliceBytes, slices, offset(layout.rank),
                     offset(layout.rank + 1)};
    // An output that only the host reads, after the last run, is filled
    // then: a run repeated by the host copies nothing.
    if (returned &&
        (elements * elemBytes - (fill.end - fill.first)) >= kDeferredFillBytes)
      pendingFills[data] = fill;
    else
      fillSlices(data, fill);
    return;
  }
  std::vector<int64_t> offsets;
  for (int64_t p = 0; p <= layout.count; ++p)
    offsets.push_back(offset(p));
  allGatherBlocks(data, offsets.data());
}
