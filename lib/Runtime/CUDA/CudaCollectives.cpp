//===- CudaCollectives.cpp - all-reduce and all-gather on GPUs -----------===//
//
// The collectives of a thread bound to a cuda device (pcc_cuda_launch), with
// exactly the semantics of the host runtime's pcc_all_reduce and
// pcc_all_gather (Collectives.cpp), so that both backends print the same
// results. Two ways, chosen by chooseCollectivePath:
//
//  - NCCL, when every device of the grid has a GPU of its own: all-gathers,
//    and all-reduces of integers (exact in any order), are NCCL's; other
//    all-reduces gather every member's input with NCCL and reduce them in
//    group-rank order with pcc's kernel, since NCCL's own float reductions
//    follow no fixed order (and round f16/bf16 at every step). Before each
//    NCCL call the members meet on the host to check that they all run the
//    same collective, as pcc's own collectives do.
//  - pcc's own, otherwise (several devices on one GPU): the members meet on
//    the host (Collectives.h's slots, with its timeout), publish their
//    managed buffers, and each computes its own result from its peers'
//    inputs with a kernel (CollectiveKernels.cu), or copies them for an
//    all-gather, then meets the others again before anyone may reuse its
//    input.
//
// A group whose members are in several processes of an MPI job takes NCCL
// when each member has a GPU of its own (its communicators made with
// ncclGetUniqueId, shared through the host's collective between processes,
// and ncclCommInitRank), and otherwise the host's collective between
// processes (ProcessCollectives.cpp) over the managed buffers: the same
// results bit for bit either way.
//
// Without the kernels (built without nvcc), the rank-order reduction runs on
// the host over managed memory: correct, but slow.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Collectives.h"
#include "CudaPlatform.h"
#include "Processes.h"
#include "Trace.h"

#include <dlfcn.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

using namespace pcc::runtime;
using namespace pcc::runtime::cuda;

namespace {

//===----------------------------------------------------------------------===//
// NCCL, loaded with dlopen
//===----------------------------------------------------------------------===//

template <typename F>
void resolve(void *library, const char *name, F &function, bool required) {
  function = reinterpret_cast<F>(dlsym(library, name));
  if (!function && required)
    cudaFatal("the NCCL library lacks %s; install NCCL 2.x", name);
}

/// NCCL, loaded on first use; a missing library ends the process.
const Nccl &nccl() {
  static std::once_flag once;
  static Nccl table;
  std::call_once(once, [] {
    if (isSimulated()) {
      table = simulatedNccl();
      return;
    }
    char message[1024] = "";
    void *library = pcc_nccl_load(message, sizeof(message));
    if (!library)
      cudaFatal("%s", message);
    resolve(library, "ncclGetErrorString", table.getErrorString, true);
    resolve(library, "ncclGetLastError", table.getLastError, false);
    resolve(library, "ncclCommInitAll", table.commInitAll, true);
    resolve(library, "ncclGetUniqueId", table.getUniqueId, true);
    resolve(library, "ncclCommInitRank", table.commInitRank, true);
    resolve(library, "ncclCommDestroy", table.commDestroy, true);
    resolve(library, "ncclAllReduce", table.allReduce, true);
    resolve(library, "ncclAllGather", table.allGather, true);
    resolve(library, "ncclReduceScatter", table.reduceScatter, true);
    resolve(library, "ncclBroadcast", table.broadcast, true);
    resolve(library, "ncclSend", table.send, true);
    resolve(library, "ncclRecv", table.recv, true);
    resolve(library, "ncclGroupStart", table.groupStart, true);
    resolve(library, "ncclGroupEnd", table.groupEnd, true);
    resolve(library, "ncclCommGetAsyncError", table.commGetAsyncError, true);
    resolve(library, "ncclCommAbort", table.commAbort, true);
  });
  return table;
}

/// Ends the process if `result` is an NCCL error, naming it.
void ncclCheck(ncclResult_t result, ncclComm_t comm, const char *what) {
  if (result == ncclSuccess)
    return;
  const Nccl &n = nccl();
  const char *detail = comm && n.getLastError ? n.getLastError(comm) : nullptr;
  cudaFatal("%s: NCCL error: %s%s%s%s", what, n.getErrorString(result),
            detail && *detail ? " (" : "", detail ? detail : "",
            detail && *detail ? ")" : "");
}

/// One member's part in a collective, and where it stands in its group.
struct Call {
  const Collective &c;
  GroupPos pos;
  const char *op;
  /// The calling thread's device, set by begin().
  CudaDevice *self = nullptr;
  /// For a group with members in other processes (set by begin()): where
  /// this process's members meet, and the caller's place among them.
  GroupSlot *here = nullptr;
  GroupPos local{};

  /// Its phases, when traced.
  trace::CollectiveSpans spans;

  Call(const Collective &c)
      : c(c), pos(checkAndLocate(c)), op(c.name()),
        spans(c.device, op, currentCallSite().description) {}
  GroupSlot &slot() const { return *findSlot(c, pos); }
  void meet(GroupSlot &slot) const {
    pcc::runtime::meet(slot, op, c.device, pos);
  }
  Fingerprint fingerprint() const {
    return {fingerprintKind(c), c.dtype, c.count, currentCallSite().shape};
  }
};

/// The NCCL communicators of one group, indexed by group rank.
struct NcclGroup {
  std::vector<ncclComm_t> comms;
};

/// The caller's communicator for its group, whose members are in several
/// processes (call.here). On the group's first NCCL collective, the
/// group's rank 0 makes a unique id, the host's collective between
/// processes gives it to every member, and this process's first member
/// creates the communicators of its members (ncclCommInitRank on each
/// one's GPU, inside ncclGroupStart/ncclGroupEnd, which waits for every
/// rank of the group), while the others wait for it as in communicator().
ncclComm_t communicatorAcrossProcesses(const Call &call) {
  GroupSlot &here = *call.here;
  const GroupPos &local = call.local;
  if (!here.cudaState) {
    auto meet = [&] {
      pcc::runtime::meet(here, call.op, call.c.device, local);
    };
    meet();
    const Nccl &n = nccl();
    ncclUniqueId id{};
    if (call.pos.rank == 0)
      ncclCheck(n.getUniqueId(&id), nullptr,
                "cannot make the NCCL id of a group");
    std::vector<ncclUniqueId> ids(size_t(call.pos.size));
    Collective share = call.c;
    share.kind = Collective::AllGather;
    share.dtype = PCC_I8;
    share.reduction = 0;
    share.sources = nullptr;
    share.in = &id;
    share.out = ids.data();
    share.count = int64_t(sizeof(id));
    runAcrossProcesses(share, call.pos);
    if (local.rank == 0) {
      auto *group = new NcclGroup;
      group->comms.resize(size_t(local.size));
      int64_t devices = gridSize(call.c);
      const char *what = "cannot create the NCCL communicators of a group";
      ncclCheck(n.groupStart(), nullptr, what);
      for (int64_t l = 0; l < local.size; ++l) {
        // NCCL creates each rank on the current GPU.
        cudaCheck(cudaDriver().cuCtxSetCurrent(
                      cudaContextOf(here.memberDevice(l), devices)),
                  "cannot make the GPU current");
        ncclCheck(n.commInitRank(&group->comms[size_t(l)],
                                 int(call.pos.size), ids[0],
                                 int(here.groupRanks[size_t(l)])),
                  nullptr, what);
      }
      ncclCheck(n.groupEnd(), nullptr, what);
      cudaCheck(cudaDriver().cuCtxSetCurrent(call.self->context),
                "cannot make the GPU current");
      here.cudaState = group;
    }
    meet();
  }
  return static_cast<NcclGroup *>(here.cudaState)->comms[size_t(local.rank)];
}

/// The caller's communicator for its group. On the group's first NCCL
/// collective, the members meet, rank 0 creates every member's communicator
/// at once (ncclCommInitAll, on the members' GPUs in rank order), and they
/// meet again.
ncclComm_t communicator(const Call &call) {
  if (call.here)
    return communicatorAcrossProcesses(call);
  GroupSlot &slot = call.slot();
  const GroupPos &pos = call.pos;
  // Safe without a lock: rank 0 writes cudaState only after every member
  // has arrived at the first meeting, that is after every member's check
  // here, and the others read it again only after the second.
  if (!slot.cudaState) {
    call.meet(slot);
    if (pos.rank == 0) {
      auto *group = new NcclGroup;
      group->comms.resize(size_t(pos.size));
      std::vector<int> gpus;
      for (int64_t r = 0; r < pos.size; ++r)
        gpus.push_back(cudaGpuOf(slot.memberDevice(r), gridSize(call.c)));
      ncclCheck(
          nccl().commInitAll(group->comms.data(), int(pos.size), gpus.data()),
          nullptr, "cannot create the NCCL communicators of a group");
      // NCCL selects each GPU in turn on this thread: restore ours.
      cudaCheck(cudaDriver().cuCtxSetCurrent(call.self->context),
                "cannot make the GPU current");
      slot.cudaState = group;
    }
    call.meet(slot);
  }
  return static_cast<NcclGroup *>(slot.cudaState)->comms[size_t(pos.rank)];
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

const char *dtypeName(int32_t dtype) {
  static const char *names[] = {"i8",   "i16", "i32", "i64", "f16",
                                "bf16", "f32", "f64", "i1"};
  return dtype >= 0 && dtype <= PCC_I1 ? names[dtype] : "?";
}

/// What a collective is, for error messages: "all_reduce of 8 f32 elements".
std::string describeOp(const char *op, int32_t dtype, int64_t count) {
  return std::string(op) + " of " + std::to_string(count) + " " +
         dtypeName(dtype) + " element" + (count == 1 ? "" : "s");
}

/// Waits for the device's stream, where an NCCL operation was enqueued,
/// until the collective timeout: NCCL kernels wait without limit. Every
/// member has met the others on the host first (agree), so a timeout here
/// means that NCCL itself stalled. On an NCCL error or at the deadline,
/// aborts the communicator and ends the process.
void waitNccl(CudaDevice &self, ncclComm_t comm, const char *op, int32_t dtype,
              int64_t count) {
  const Nccl &n = nccl();
  auto deadline = std::chrono::steady_clock::now() + collectiveTimeout();
  for (int polls = 0;; ++polls) {
    CUresult result = cudaDriver().cuStreamQuery(self.stream);
    if (result == CUDA_SUCCESS)
      return;
    if (result != CUDA_ERROR_NOT_READY)
      cudaCheck(result, "%s failed", describeOp(op, dtype, count).c_str());
    ncclResult_t error = ncclSuccess;
    ncclCheck(n.commGetAsyncError(comm, &error), comm,
              "cannot query an NCCL communicator");
    if (error != ncclSuccess && error != ncclInProgress) {
      n.commAbort(comm);
      ncclCheck(error, nullptr,
                (describeOp(op, dtype, count) + " failed").c_str());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      n.commAbort(comm);
      const char *site = currentCallSite().description;
      cudaFatal("%s%s%s did not complete within %g s, though every device "
                "of its group had reached it: NCCL stalled. "
                "PCC_COLLECTIVE_TIMEOUT sets the limit in seconds",
                describeOp(op, dtype, count).c_str(), site ? " at `" : "",
                site ? (std::string(site) + "`").c_str() : "",
                std::chrono::duration<double>(collectiveTimeout()).count());
    }
    // Poll eagerly for short collectives, then every 20 us.
    if (polls < 100) {
      sched_yield();
    } else {
      timespec pause = {0, 20000};
      nanosleep(&pause, nullptr);
    }
  }
}

/// The device's managed scratch buffer, at least `bytes` large. Work queued
/// on the device's stream never uses it: every collective that does is
/// complete when it returns.
char *scratch(CudaDevice &self, size_t bytes) {
  if (self.scratchBytes < bytes) {
    if (self.scratch)
      cudaCheck(cudaDriver().cuMemFree(CUdeviceptr(uintptr_t(self.scratch))),
                "cannot free GPU memory");
    self.scratch = cudaAllocManaged(int64_t(bytes));
    self.scratchBytes = bytes;
  }
  return static_cast<char *>(self.scratch);
}

/// The device's managed table of `entries` input pointers (read by the
/// reduction kernel). Only called when the device's stream is idle: the
/// host writes the table next.
const void **inputTable(CudaDevice &self, size_t entries) {
  if (self.tableEntries < entries) {
    if (self.table)
      cudaCheck(cudaDriver().cuMemFree(CUdeviceptr(uintptr_t(self.table))),
                "cannot free GPU memory");
    self.table = static_cast<const void **>(
        cudaAllocManaged(int64_t(entries * sizeof(void *))));
    self.tableEntries = entries;
  }
  return self.table;
}

void copyAsync(CudaDevice &self, void *dst, const void *src, size_t bytes) {
  cudaCheck(cudaDriver().cuMemcpyAsync(CUdeviceptr(uintptr_t(dst)),
                                       CUdeviceptr(uintptr_t(src)), bytes,
                                       self.stream),
            "cannot copy %zu bytes of a collective", bytes);
}

/// Reduces `n` inputs in rank order into `out` on the device's stream (input
/// j is table[j], or base + j * stride bytes when table is null). Without
/// the kernels, waits for the stream and reduces on the host instead.
void reduceInputs(CudaDevice &self, int32_t reduction, int32_t dtype,
                  const void *const *table, const char *base, long long stride,
                  long long n, void *out, long long count) {
  if (!collectiveKernelsPtx()) {
    cudaSyncDevice(self);
    std::vector<const void *> inputs;
    for (long long j = 0; j < n; ++j)
      inputs.push_back(table ? table[j] : base + j * stride);
    hostReduce(reduction, dtype, inputs.data(), n, out, count);
    return;
  }
  // A grid-stride loop: a few blocks per SM cover any count.
  constexpr long long kThreads = 256, kMaxBlocks = 4096;
  long long blocks = std::min(kMaxBlocks, (count + kThreads - 1) / kThreads);
  void *params[] = {&table, &base, &stride, &n, &out, &count};
  launchCollectiveKernel(collectiveKernelName(reduction, dtype),
                         unsigned(blocks), unsigned(kThreads), params);
}

/// NCCL's type for an integer all-reduce: unsigned for sums (they wrap),
/// signed for max/min. -1 for i16, which NCCL lacks.
int ncclIntegerType(int32_t reduction, int32_t dtype) {
  bool sum = reduction == PCC_SUM;
  switch (dtype) {
  case PCC_I8:
    return sum ? ncclUint8 : ncclInt8;
  case PCC_I32:
    return sum ? ncclUint32 : ncclInt32;
  case PCC_I64:
    return sum ? ncclUint64 : ncclInt64;
  }
  return -1;
}

int ncclOp(int32_t reduction) {
  return reduction == PCC_SUM   ? ncclSum
         : reduction == PCC_MAX ? ncclMax
                                : ncclMin;
}

/// Fills `bytes` of `out` with zeros on the device's stream.
void zeroAsync(CudaDevice &self, void *out, size_t bytes) {
  cudaCheck(cudaDriver().cuMemsetD8Async(CUdeviceptr(uintptr_t(out)), 0, bytes,
                                         self.stream),
            "cannot clear %zu bytes of a collective", bytes);
}

/// Starts `call` on the calling thread's device, which must be its device,
/// and does what is the same for every collective: nothing for empty
/// buffers (the same on every member), a copy (or zeros) for a group of
/// one, where the result is then complete and Local returned. Otherwise
/// returns the way the rest goes.
CudaCollectivePath begin(Call &call) {
  const Collective &c = call.c;
  call.self = boundCudaDevice();
  if (!call.self || call.self->index != c.device)
    collectiveFatal(call.op,
                    "the device index is not the device of this thread");
  if (c.count == 0) {
    cudaSyncDevice(*call.self);
    return CudaCollectivePath::Local;
  }
  if (call.pos.size > 1) {
    const ProcessLayout &processes = processLayout();
    if (multiProcess())
      call.here = slotHere(c, call.pos, call.local);
    return chooseCollectivePath(c.gridRank, c.dims, c.mask,
                                {cudaGpuCount(), processes.count,
                                 processes.localCount, !isSimulated()},
                                call.here != nullptr);
  }
  call.spans.enter(trace::Phase::Transfer);
  if (c.kind == Collective::Permute && c.sources[0] < 0)
    zeroAsync(*call.self, c.out, c.inBytes());
  else if (c.in != c.out)
    copyAsync(*call.self, c.out, c.in, c.inBytes());
  cudaSyncDevice(*call.self);
  return CudaCollectivePath::Local;
}

/// The NCCL path's check, before it enqueues anything: the members meet on
/// the host and stop, naming both collectives, if they do not all run the
/// same one (publishAndMeet, announcing no buffers). NCCL would otherwise
/// pair mismatched collectives and hang or read past a buffer. It costs one
/// host meeting, small beside an NCCL call and the wait for its stream.
void agree(Call &call) {
  call.spans.enter(trace::Phase::Wait);
  if (call.here)
    agreeAcrossProcesses(call.c, call.pos, *call.here, call.local);
  else
    publishAndMeet(call.slot(), call.op, call.c.device, call.pos, nullptr,
                   nullptr, call.fingerprint());
  call.spans.enter(trace::Phase::Transfer);
}

/// pcc's own collectives (several devices on one GPU), first step: once the
/// caller's stream has finished writing `in`, announces the buffers in the
/// group's slot, waits for the other members and checks that they all run
/// the same collective (publishAndMeet). From then on until leave(), every
/// member may read every other member's input. Returns the announcements.
const Announcement *publish(Call &call) {
  cudaSyncDevice(*call.self);
  call.spans.enter(trace::Phase::Wait);
  const Announcement *members =
      publishAndMeet(call.slot(), call.op, call.c.device, call.pos, call.c.in,
                     call.c.out, call.fingerprint());
  call.spans.enter(trace::Phase::Transfer);
  return members;
}

/// Last step: waits until the work queued on the caller's stream (which
/// reads the peers' inputs) is done, then for the other members to get
/// there too. After this, every member may overwrite its input.
void leave(Call &call) {
  cudaSyncDevice(*call.self);
  call.spans.enter(trace::Phase::Wait);
  call.meet(call.slot());
  call.spans.enter(trace::Phase::Transfer);
}

/// The collective over NCCL (every member has a GPU of its own).
void runNccl(Call &call) {
  const Collective &c = call.c;
  CudaDevice &self = *call.self;
  agree(call);
  ncclComm_t comm = communicator(call);
  const Nccl &n = nccl();
  int64_t size = call.pos.size, rank = call.pos.rank;
  size_t bytes = c.inBytes();
  const char *what = c.name() + 4; // without "pcc_"
  auto check = [&](ncclResult_t result) {
    ncclCheck(result, comm,
              (std::string("cannot start an NCCL ") + what).c_str());
  };
  auto wait = [&] { waitNccl(self, comm, what, c.dtype, c.count); };
  int integerType = ncclIntegerType(c.reduction, c.dtype);
  switch (c.kind) {
  case Collective::AllGather:
    check(n.allGather(c.in, c.out, bytes, ncclUint8, comm, self.stream));
    break;
  case Collective::AllReduce:
  case Collective::ReduceScatter: {
    bool scatter = c.kind == Collective::ReduceScatter;
    int64_t count = scatter ? c.count / size : c.count;
    if (integerType >= 0) {
      // Integers are exact in any order: NCCL's own reduction.
      check(scatter ? n.reduceScatter(c.in, c.out, size_t(count), integerType,
                                      ncclOp(c.reduction), comm, self.stream)
                    : n.allReduce(c.in, c.out, size_t(count), integerType,
                                  ncclOp(c.reduction), comm, self.stream));
      break;
    }
    // Gather every input (as bytes), then reduce (this member's part) in
    // rank order. The gather has read `in` before the reduction (next on
    // the stream) writes `out`.
    char *gathered = scratch(self, size_t(size) * bytes);
    check(n.allGather(c.in, gathered, bytes, ncclUint8, comm, self.stream));
    if (!collectiveKernelsPtx())
      wait();
    size_t offset =
        scatter ? size_t(rank * count) * size_t(elemSize(c.dtype)) : 0;
    reduceInputs(self, c.reduction, c.dtype, nullptr, gathered + offset,
                 (long long)bytes, size, c.out, count);
    break;
  }
  case Collective::AllToAll: {
    // As XLA lowers all-to-all: a send and a receive per peer, grouped.
    size_t chunk = bytes / size_t(size);
    check(n.groupStart());
    for (int64_t peer = 0; peer < size; ++peer) {
      check(n.send(static_cast<const char *>(c.in) + peer * chunk, chunk,
                   ncclUint8, int(peer), comm, self.stream));
      check(n.recv(static_cast<char *>(c.out) + peer * chunk, chunk, ncclUint8,
                   int(peer), comm, self.stream));
    }
    check(n.groupEnd());
    break;
  }
  case Collective::Permute: {
    int64_t source = c.sources[rank];
    bool broadcast = source >= 0;
    for (int64_t r = 0; r < size; ++r)
      broadcast = broadcast && c.sources[r] == source;
    if (broadcast) {
      check(n.broadcast(c.in, c.out, bytes, ncclUint8, int(source), comm,
                        self.stream));
      break;
    }
    // As XLA lowers collective-permute: grouped sends and receives.
    check(n.groupStart());
    for (int64_t peer = 0; peer < size; ++peer)
      if (c.sources[peer] == rank)
        check(n.send(c.in, bytes, ncclUint8, int(peer), comm, self.stream));
    if (source >= 0)
      check(n.recv(c.out, bytes, ncclUint8, int(source), comm, self.stream));
    check(n.groupEnd());
    if (source < 0)
      zeroAsync(self, c.out, bytes);
    break;
  }
  }
  wait();
}

/// The collective with pcc's kernels and copies (several devices on a GPU).
void runPeer(Call &call) {
  const Collective &c = call.c;
  CudaDevice &self = *call.self;
  int64_t size = call.pos.size, rank = call.pos.rank;
  size_t bytes = c.inBytes();
  const Announcement *members = publish(call);
  auto input = [&](int64_t r, size_t offset) {
    return static_cast<const char *>(members[r].in) + offset;
  };
  char *out = static_cast<char *>(c.out);
  // Peers read `in` until everyone has left: an in-place all-reduce's
  // result waits in the scratch buffer until then.
  void *result = c.in == c.out ? scratch(self, bytes) : c.out;
  switch (c.kind) {
  case Collective::AllReduce:
  case Collective::ReduceScatter: {
    bool scatter = c.kind == Collective::ReduceScatter;
    int64_t count = scatter ? c.count / size : c.count;
    size_t offset =
        scatter ? size_t(rank * count) * size_t(elemSize(c.dtype)) : 0;
    const void **table = inputTable(self, size_t(size));
    for (int64_t r = 0; r < size; ++r)
      table[r] = input(r, offset);
    reduceInputs(self, c.reduction, c.dtype, table, nullptr, 0, size, result,
                 count);
    break;
  }
  case Collective::AllGather:
    // Each member pulls every input into its own output.
    for (int64_t r = 0; r < size; ++r)
      copyAsync(self, out + r * bytes, input(r, 0), bytes);
    break;
  case Collective::AllToAll: {
    size_t chunk = bytes / size_t(size);
    for (int64_t r = 0; r < size; ++r)
      copyAsync(self, out + r * chunk, input(r, size_t(rank) * chunk), chunk);
    break;
  }
  case Collective::Permute:
    if (int64_t source = c.sources[rank]; source >= 0)
      copyAsync(self, out, input(source, 0), bytes);
    else
      zeroAsync(self, out, bytes);
    break;
  }
  leave(call);
  if (result != c.out) {
    copyAsync(self, c.out, result, bytes);
    cudaSyncDevice(self);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Pure decisions
//===----------------------------------------------------------------------===//

CudaCollectivePath pcc::runtime::chooseCollectivePath(int64_t gridRank,
                                                      const int64_t *dims,
                                                      uint64_t mask,
                                                      const GpuLayout &layout,
                                                      bool spansProcesses) {
  int64_t devices = 1, groupSize = 1;
  for (int64_t k = 0; k < gridRank; ++k) {
    devices *= dims[k];
    if ((mask >> k) & 1)
      groupSize *= dims[k];
  }
  if (groupSize == 1)
    return CudaCollectivePath::Local;
  int64_t perProcess = devices / layout.processes;
  if (spansProcesses)
    return perProcess * layout.processesPerMachine <= layout.gpus &&
                   (layout.ncclSpansMachines ||
                    layout.processesPerMachine == layout.processes)
               ? CudaCollectivePath::Nccl
               : CudaCollectivePath::Processes;
  return perProcess <= layout.gpus ? CudaCollectivePath::Nccl
                                   : CudaCollectivePath::Peer;
}

const char *pcc::runtime::collectiveKernelName(int32_t reduction,
                                               int32_t dtype) {
  static const char *names[3][8] = {
      {"pcc_reduce_sum_i8", "pcc_reduce_sum_i16", "pcc_reduce_sum_i32",
       "pcc_reduce_sum_i64", "pcc_reduce_sum_f16", "pcc_reduce_sum_bf16",
       "pcc_reduce_sum_f32", "pcc_reduce_sum_f64"},
      {"pcc_reduce_max_i8", "pcc_reduce_max_i16", "pcc_reduce_max_i32",
       "pcc_reduce_max_i64", "pcc_reduce_max_f16", "pcc_reduce_max_bf16",
       "pcc_reduce_max_f32", "pcc_reduce_max_f64"},
      {"pcc_reduce_min_i8", "pcc_reduce_min_i16", "pcc_reduce_min_i32",
       "pcc_reduce_min_i64", "pcc_reduce_min_f16", "pcc_reduce_min_bf16",
       "pcc_reduce_min_f32", "pcc_reduce_min_f64"}};
  if (reduction < PCC_SUM || reduction > PCC_MIN || dtype < PCC_I8 ||
      dtype > PCC_F64)
    return nullptr;
  return names[reduction][dtype];
}

//===----------------------------------------------------------------------===//
// The collectives
//===----------------------------------------------------------------------===//

void pcc::runtime::cudaCollective(const Collective &c) {
  // Traced, the compute queued before the collective is waited for first,
  // so that the host's clock tells the two apart (every collective waits
  // for its stream before it returns anyway).
  if (trace::on())
    if (CudaDevice *self = boundCudaDevice())
      cudaSyncDevice(*self);
  Call call(c);
  switch (begin(call)) {
  case CudaCollectivePath::Local:
    break;
  case CudaCollectivePath::Processes:
    // Over the managed buffers, once the stream has written the input.
    cudaSyncDevice(*call.self);
    runAcrossProcesses(c, call.pos, &call.spans);
    break;
  case CudaCollectivePath::Nccl:
    runNccl(call);
    break;
  case CudaCollectivePath::Peer:
    runPeer(call);
    break;
  }
  call.spans.finish();
}
