//===- Collectives.h - Group meeting places shared by platforms -*- C++ -*-===//
//
// What the host collectives (Collectives.cpp) share with the cuda platform's
// (CudaCollectives.cpp): locating a device's group in the grid, the group's
// meeting slot where members publish their buffers and wait for each other
// (bounded by PCC_COLLECTIVE_TIMEOUT), and the rank-order host reduction that
// defines the semantics both platforms implement.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_COLLECTIVES_H
#define PCC_LIB_RUNTIME_COLLECTIVES_H

#include "Sync.h"
#include "Trace.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace pcc::runtime {

/// Prints "pcc runtime error: <what>: <detail>" and aborts: for invalid
/// arguments, which generated code never passes.
[[noreturn]] void collectiveFatal(const char *what, const char *detail);

/// How long a device waits in a collective for the rest of its group before
/// pcc gives up: PCC_COLLECTIVE_TIMEOUT seconds, default 300.
std::chrono::steady_clock::duration collectiveTimeout();

/// Whether PCC_COLLECTIVE_TIMEOUT is unset or a positive number; otherwise
/// prints an error and returns false.
bool checkCollectiveTimeout();

/// Bytes per element of a pcc_dtype, or 0 for an unknown dtype.
int64_t elemSize(int32_t dtype);

/// Whether pcc_all_reduce supports (reduction, dtype).
bool isValidReduction(int32_t reduction, int32_t dtype);

/// What one member asks of a collective: the arguments of pcc_all_reduce,
/// pcc_all_gather, pcc_reduce_scatter, pcc_all_to_all or pcc_permute
/// (pcc_runtime.h), which every platform implements.
struct Collective {
  enum Kind : int32_t {
    AllReduce = PCC_ALL_REDUCE,
    AllGather = PCC_ALL_GATHER,
    ReduceScatter = PCC_REDUCE_SCATTER,
    AllToAll = PCC_ALL_TO_ALL,
    Permute = PCC_PERMUTE
  };
  Kind kind;
  int64_t device;
  int64_t gridRank;
  const int64_t *dims;
  uint64_t mask;
  /// The axis_index_groups table (pcc_runtime.h), or null.
  const int64_t *groups = nullptr;
  /// PCC_SUM, PCC_MAX or PCC_MIN: AllReduce and ReduceScatter only.
  int32_t reduction = 0;
  int32_t dtype;
  /// Permute only: the group rank each member receives from, or -1.
  const int64_t *sources = nullptr;
  const void *in;
  void *out;
  /// Elements of `in`.
  int64_t count;

  /// "pcc_all_reduce", ...: for messages.
  const char *name() const;
  /// Bytes of `in`, and of `out` for a group of `size`.
  size_t inBytes() const { return size_t(count * elemSize(dtype)); }
  size_t outBytes(int64_t size) const;
};

/// Where a device stands in the group of a collective.
struct GroupPos {
  int64_t size;   ///< Number of members.
  int64_t rank;   ///< Row-major index over the participating coordinates,
                  ///< or the position in its axis_index_group.
  int64_t leader; ///< Linear index of rank 0: names the group in the grid.
};

/// Runs `call` on the host, between device threads (and, under mpirun,
/// processes).
void runHostCollective(const Collective &call);

/// Checks a collective's arguments (collectiveFatal on anything that
/// generated code never passes) and returns the device's place in its
/// group. Every platform's collectives start with it.
GroupPos checkAndLocate(const Collective &call);

/// The number of devices of `call`'s grid.
int64_t gridSize(const Collective &call);

/// The linear grid index of the member with group rank `rank` in the group
/// whose rank 0 is `leader` (`groups` as in Collective).
int64_t memberDevice(int64_t gridRank, const int64_t *dims, uint64_t mask,
                     const int64_t *groups, int64_t leader, int64_t rank);

/// What a member asks of a collective. The members of a group must agree on
/// it, or they would exchange buffers of different sizes and types; where
/// the program cannot prove they do (the uniformity analysis stops what
/// it can), the runtime checks before any buffer is touched.
struct Fingerprint {
  int32_t kind = 0; ///< See fingerprintKind.
  int32_t dtype = 0;
  int64_t count = 0;  ///< Elements of the input.
  uint64_t shape = 0; ///< Hash of the input's shape (0 when not known).

  bool operator==(const Fingerprint &other) const {
    return kind == other.kind && dtype == other.dtype && count == other.count &&
           shape == other.shape;
  }
};
/// The Fingerprint::kind of a collective: its kind and reduction.
inline int32_t fingerprintKind(const Collective &call) {
  return call.kind * 4 + call.reduction;
}

/// Where generated code calls a collective: set by pcc_collective for the
/// duration of its call (CallSiteScope), read by the platforms for
/// fingerprints and error messages.
struct CallSite {
  /// "spmd.psum over \"i\" : tensor<4xf32> at prog.mlir:7:10", or null.
  const char *description = nullptr;
  uint64_t shape = 0;
};
CallSite &currentCallSite();

/// Sets the calling thread's current call site for its lifetime.
class CallSiteScope {
public:
  CallSiteScope(const char *description, uint64_t shape) {
    currentCallSite() = {description, shape};
  }
  ~CallSiteScope() { currentCallSite() = {}; }
};

/// What a member announces for one collective: its buffers, what it asks
/// for, and where. One cache line each, so that members announcing at the
/// same time do not contend.
struct alignas(64) Announcement {
  const void *in = nullptr;
  void *out = nullptr;
  Fingerprint fingerprint;
  const char *site = nullptr;
  /// The collective's number in the group, from 1, stored last: members
  /// meet when they have all announced the same number.
  std::atomic<uint64_t> number{0};
  /// A staged input this small is staged here, in the line that peers read
  /// anyway, and costs no transfer of its own.
  alignas(8) char inlineInput[8];
};
static_assert(sizeof(Announcement) == 64, "an announcement is one line");

/// A member's own counters; only the member writes them.
struct alignas(64) MemberState {
  /// Collectives this member has started in the group.
  uint64_t started = 0;
  /// Claims on the group's blocks of work (GroupSlot::claims) made before
  /// this member's current collective, by all of the members.
  uint64_t claimsBefore = 0;
  /// How many meetings this member has reached: its peers wait until it has
  /// reached theirs (meet), and one that times out names those that have
  /// not. A line of its own, which peers poll while `started` changes.
  alignas(64) std::atomic<uint64_t> arrivals{0};
};

/// Inputs up to this size are staged: each member copies its input into
/// the group's slot, so that it may return as soon as it has read its
/// peers' copies, and the collective needs one meeting instead of two.
constexpr int64_t kStagedBytes = 4096;

/// A member's staged input.
struct alignas(64) StagedInput {
  char bytes[kStagedBytes];
};

/// Meeting place of one group.
///
/// Announcements and staged inputs alternate between two sets by the parity
/// of the collective's number. A member writes set `number % 2` before its
/// first meeting of that collective, and its peers read it until they leave
/// the collective, which is before they arrive at the next meeting. The
/// member writes the same set again two collectives later, after the meeting
/// of the collective between, which all of them had to reach.
struct GroupSlot {
  std::vector<int64_t> dims;
  uint64_t mask;
  const int64_t *groups;
  int64_t leader;
  int64_t size;
  std::unique_ptr<MemberState[]> members;
  std::unique_ptr<Announcement[]> announced[2];
  std::unique_ptr<StagedInput[]> staged[2];
  /// Where members wait for each other (meet).
  SpinWait waiter;
  /// State of the cuda platform for this group (its NCCL communicators);
  /// written by rank 0 between two meetings, never freed.
  void *cudaState = nullptr;
  /// For a group whose members are in several processes (mpirun), where
  /// the slot holds this process's members only: the group rank of each,
  /// in order, and the state of the exchange between processes, written by
  /// the first of them between two meetings, never freed.
  std::vector<int64_t> groupRanks;
  void *processState = nullptr;
  /// Claims on blocks of the group's large collectives, ever (shareWork):
  /// last, on a line of its own, which the members take turns to write.
  alignas(64) std::atomic<uint64_t> claims{0};

  bool matches(const Collective &call, int64_t l) const;
  /// The linear grid index of the member of rank `rank` (in the slot).
  int64_t memberDevice(int64_t rank) const {
    return pcc::runtime::memberDevice(
        int64_t(dims.size()), dims.data(), mask, groups, leader,
        groupRanks.empty() ? rank : groupRanks[size_t(rank)]);
  }
};

/// The slot of the group of `call` at `pos` (created on first use, kept for
/// the life of the process). `groupRanks`: see GroupSlot.
GroupSlot *findSlot(const Collective &call, const GroupPos &pos,
                    const std::vector<int64_t> *groupRanks = nullptr);

/// Waits for the other members of the group to reach this meeting. A member
/// that waits past the collective timeout ends the process with status 1,
/// naming its collective, the devices that did not arrive and where they
/// wait instead.
void meet(GroupSlot &slot, const char *op, int64_t device, const GroupPos &pos);

/// The first meeting of a collective: announces the member's buffers,
/// fingerprint and call site under the collective's number in the group,
/// waits until every member has announced that number, and checks that
/// they all asked for the same collective. On a mismatch the process ends
/// with status 1 and an error naming both collectives, before any member
/// reads a peer's buffer. With `stage`, `in` (at most kStagedBytes) is
/// copied into the slot first and the copy is announced (and `outBytes` of
/// `out` fetched for writing), except for the `ownBytes` at offset
/// pos.rank * ownBytes, which no peer reads (an all-to-all's own chunk).
/// Returns every member's announcement, indexed by group rank.
const Announcement *publishAndMeet(GroupSlot &slot, const char *op,
                                   int64_t device, const GroupPos &pos,
                                   const void *in, void *out,
                                   const Fingerprint &fingerprint,
                                   bool stage = false, size_t outBytes = 0,
                                   size_t ownBytes = 0);

/// A member's share of `call` once every input of its group is readable
/// through members[0..pos.size) in group-rank order (an all-to-all reads
/// its own chunk from `call.in`, which it may not stage): its own output, and
/// for the all-reduce and the all-gather a part of the outputs of the
/// `sharing.size` members that split the work, outputs[0..sharing.size)
/// (`sharing.rank` is its place among them; `outputs` points into the same
/// array as `members`); for the other kinds of a large message whose
/// members are all here (sharing.size == pos.size, outputs == members),
/// blocks of any member's output. With `stage` (staged inputs, after which
/// the members do not meet again) it writes its own output only. `slot` is
/// the group's (of `sharing`'s members), where they share out the work of a
/// large message.
void computeOwnPart(const Collective &call, const Announcement *members,
                    const GroupPos &pos, const Announcement *outputs,
                    GroupSlot &slot, const GroupPos &sharing, bool stage);

/// The all-reduce part of computeOwnPart for elements [lo, hi) of the
/// message only (`lo` a multiple of sliceOf's unit).
void reduceRange(const Collective &call, const Announcement *members,
                 const GroupPos &pos, const Announcement *outputs,
                 GroupSlot &slot, const GroupPos &sharing, int64_t lo,
                 int64_t hi);

/// Element range [lo, hi) of `count` that member `rank` of `size` reduces.
/// Slices are whole cache lines, so members writing neighbouring slices of
/// the same output never share a line; a message of one line is reduced by
/// rank 0 alone, which is also the cheapest for tiny messages.
void sliceOf(int64_t count, int64_t elemSize, int64_t size, int64_t rank,
             int64_t &lo, int64_t &hi);

/// For a group with members in other processes of an MPI job
/// (ProcessCollectives.cpp): the slot where this process's members meet,
/// and `local`, the caller's place among them. Null for a group within
/// this process.
GroupSlot *slotHere(const Collective &call, const GroupPos &pos,
                    GroupPos &local);

/// Runs `call` if its group has members in other processes of an MPI job
/// and returns true; otherwise returns false. The collective's phases go
/// into `spans` (if given): waiting until the last process of the group
/// has sent what it runs, moving data, waiting for the members here.
bool runAcrossProcesses(const Collective &call, const GroupPos &pos,
                        trace::CollectiveSpans *spans = nullptr);

/// For a group with members in other processes (`here` and `local` from
/// slotHere): checks that every member runs the same collective as `call`
/// (the processes swap what they run, as runAcrossProcesses does before any
/// data), ending the run with an error naming both otherwise.
void agreeAcrossProcesses(const Collective &call, const GroupPos &pos,
                          GroupSlot &here, const GroupPos &local);

/// Reduces `count` elements of `dtype` over `n` inputs in rank order (the
/// semantics of pcc_all_reduce) into `out`, on the calling thread. `out` may
/// be one of the inputs. (reduction, dtype) must be valid.
void hostReduce(int32_t reduction, int32_t dtype, const void *const *inputs,
                int64_t n, void *out, int64_t count);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_COLLECTIVES_H
