//===- Collectives.cpp - Shared-memory collectives of the host runtime ----===//
//
// Implements pcc_all_reduce and pcc_all_gather between device threads. The
// members of a group meet in a slot that is specific to the group (grid
// shape, axes, and the coordinates on the other axes), so disjoint groups run
// concurrently without sharing anything. Slots are created on first use and
// kept for the life of the process; each thread caches the slots it has used,
// so a collective after the first allocates nothing and takes no lock: it
// announces its buffers in the slot, crosses a barrier, does its share of
// the work reading the peers' buffers directly, and crosses a second barrier
// before anyone may reuse them. Small inputs are copied into the slot
// instead, and each member computes its whole result from the copies: one
// barrier, which is most of a small collective's time.
// The slots and the reduction semantics are shared with the cuda platform
// (Collectives.h).
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "Collectives.h"
#include "Processes.h"
#include "RuntimeError.h"
#include "Trace.h"
#include "pcc/Support/Float16.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace pcc::runtime {

void collectiveFatal(const char *what, const char *detail) {
  reportError(std::string(what) + ": " + detail);
  std::abort();
}

namespace {
/// PCC_COLLECTIVE_TIMEOUT in seconds: 0 when unset, -1 when it is not a
/// positive number.
double timeoutSetting() {
  const char *text = std::getenv("PCC_COLLECTIVE_TIMEOUT");
  if (!text)
    return 0;
  char *end = nullptr;
  double value = std::strtod(text, &end);
  // Not after blanks or a sign, which strtod would skip: as the other
  // settings are read, "5" and not " 5" or "+5".
  bool plain = *text != '+' && !std::isspace(static_cast<unsigned char>(*text));
  return plain && end != text && !*end && value > 0 ? value : -1;
}
} // namespace

bool checkCollectiveTimeout() {
  if (timeoutSetting() >= 0)
    return true;
  reportError(std::string("PCC_COLLECTIVE_TIMEOUT must be a positive number "
                          "of seconds, not '") +
              std::getenv("PCC_COLLECTIVE_TIMEOUT") + "'");
  return false;
}

std::chrono::steady_clock::duration collectiveTimeout() {
  // Converted once: every wait that outlasts its first check asks.
  static const std::chrono::steady_clock::duration timeout = [] {
    double value = timeoutSetting();
    // At most about 31 years, as good as never: a larger value (1e20, inf)
    // would overflow the clock's nanoseconds and time out at once.
    constexpr double kLongest = 1e9;
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(value > 0 ? std::min(value, kLongest)
                                                : 300.0));
  }();
  return timeout;
}

//===----------------------------------------------------------------------===//
// Groups and their slots
//===----------------------------------------------------------------------===//

namespace {
const char *kindName(int32_t kind) {
  static const char *names[] = {"pcc_all_reduce", "pcc_all_gather",
                                "pcc_reduce_scatter", "pcc_all_to_all",
                                "pcc_permute"};
  return kind >= 0 && kind <= Collective::Permute ? names[kind]
                                                  : "a collective";
}
} // namespace

const char *Collective::name() const { return kindName(kind); }

size_t Collective::outBytes(int64_t size) const {
  switch (kind) {
  case AllGather:
    return inBytes() * size_t(size);
  case ReduceScatter:
    return inBytes() / size_t(size);
  default:
    return inBytes();
  }
}

namespace {
/// The entries of an axis_index_groups table for an axis of `size`
/// positions (pcc_runtime.h): the groups' members in order, then for each
/// position, where it is in that list, where its group starts, and its
/// group's size.
struct GroupsTable {
  const int64_t *members, *position, *start, *size;
  GroupsTable(const int64_t *table, int64_t axisSize)
      : members(table), position(table + axisSize), start(table + 2 * axisSize),
        size(table + 3 * axisSize) {}
};

/// The one axis of `mask` (a collective with groups has one), or -1.
int64_t singleAxis(int64_t gridRank, uint64_t mask) {
  if (mask == 0 || (mask & (mask - 1)) != 0)
    return -1;
  int64_t axis = __builtin_ctzll(mask);
  return axis < gridRank ? axis : -1;
}
} // namespace

GroupPos checkAndLocate(const Collective &call) {
  const char *op = call.name();
  int64_t gridRank = call.gridRank;
  const int64_t *dims = call.dims;
  uint64_t mask = call.mask;
  bool reduces = call.kind == Collective::AllReduce ||
                 call.kind == Collective::ReduceScatter;
  if (reduces ? !isValidReduction(call.reduction, call.dtype)
              : elemSize(call.dtype) == 0)
    collectiveFatal(op, "unsupported reduction or element type");
  if (call.count < 0 || (call.count > 0 && (!call.in || !call.out)))
    collectiveFatal(op, "invalid buffer");
  if (call.kind != Collective::AllReduce && call.count > 0 &&
      call.in == call.out)
    collectiveFatal(op, "the input aliases the output");
  if (gridRank < 0 || gridRank > 64 || (gridRank > 0 && !dims))
    collectiveFatal(op, "invalid grid rank");
  if (gridRank < 64 && (mask >> gridRank) != 0)
    collectiveFatal(op, "axes_mask names an axis beyond the grid rank");
  GroupPos pos{1, 0, 0};
  int64_t rem = call.device, stride = 1;
  int64_t groupAxis = call.groups ? singleAxis(gridRank, mask) : -1;
  if (call.groups && groupAxis < 0)
    collectiveFatal(op, "groups need exactly one axis");
  // Innermost axis first, so strides accumulate in row-major order.
  for (int64_t k = gridRank - 1; k >= 0; --k) {
    if (dims[k] <= 0)
      collectiveFatal(op, "grid dimension is not positive");
    // (Without a division where it can: in a grid of one axis, the
    // coordinate is the device number itself.)
    int64_t coord = rem < dims[k] ? rem : rem % dims[k];
    rem = rem < dims[k] ? 0 : rem / dims[k];
    if (k == groupAxis) {
      GroupsTable table(call.groups, dims[k]);
      int64_t at = table.position[coord], first = table.start[coord],
              size = table.size[coord];
      if (first < 0 || size < 1 || first + size > dims[k] || at < first ||
          at >= first + size || table.members[at] != coord)
        collectiveFatal(op, "invalid groups table");
      pos.rank = at - first;
      pos.size = size;
      pos.leader += table.members[first] * stride;
    } else if ((mask >> k) & 1) {
      pos.rank += coord * pos.size;
      pos.size *= dims[k];
    } else {
      pos.leader += coord * stride;
    }
    stride *= dims[k];
  }
  if (call.device < 0 || call.device >= stride)
    collectiveFatal(op, "device index outside the grid");
  if ((call.kind == Collective::ReduceScatter ||
       call.kind == Collective::AllToAll) &&
      call.count % pos.size != 0)
    collectiveFatal(op, "the input does not split into one part per member");
  if (call.kind == Collective::Permute)
    for (int64_t rank = 0; rank < pos.size; ++rank)
      if (!call.sources || call.sources[rank] < -1 ||
          call.sources[rank] >= pos.size)
        collectiveFatal(op, "invalid sources table");
  return pos;
}

bool GroupSlot::matches(const Collective &call, int64_t l) const {
  if (mask != call.mask || leader != l || groups != call.groups ||
      int64_t(dims.size()) != call.gridRank)
    return false;
  // A loop, not std::equal: grids have a few axes, and memcmp's call would
  // cost more than comparing them.
  for (int64_t k = 0; k < call.gridRank; ++k)
    if (dims[size_t(k)] != call.dims[k])
      return false;
  return true;
}

namespace {

/// All slots ever created. Never destroyed: device threads may still hold
/// pointers to slots while static destructors run.
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<GroupSlot>> slots;
};

Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

/// Per-thread cache of the slots this thread has used; a device calls few
/// distinct collectives, so the last hit and then a linear scan are cheap.
struct SlotCache {
  std::vector<GroupSlot *> slots;
  size_t last = 0;
};
thread_local SlotCache slotCache;

} // namespace

GroupSlot *findSlot(const Collective &call, const GroupPos &pos,
                    const std::vector<int64_t> *groupRanks) {
  SlotCache &cache = slotCache;
  size_t n = cache.slots.size();
  if (cache.last < n && cache.slots[cache.last]->matches(call, pos.leader))
    return cache.slots[cache.last];
  for (size_t i = 0; i < n; ++i)
    if (cache.slots[i]->matches(call, pos.leader)) {
      cache.last = i;
      return cache.slots[i];
    }
  Registry &reg = registry();
  GroupSlot *slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(reg.mutex);
    for (auto &s : reg.slots)
      if (s->matches(call, pos.leader)) {
        slot = s.get();
        break;
      }
    if (!slot) {
      auto s = std::make_unique<GroupSlot>();
      s->dims.assign(call.dims, call.dims + call.gridRank);
      s->mask = call.mask;
      s->groups = call.groups;
      s->leader = pos.leader;
      s->size = pos.size;
      if (groupRanks)
        s->groupRanks = *groupRanks;
      s->members.reset(new MemberState[pos.size]);
      for (int parity = 0; parity < 2; ++parity) {
        s->announced[parity].reset(new Announcement[pos.size]);
        s->staged[parity].reset(new StagedInput[pos.size]);
      }
      slot = s.get();
      reg.slots.push_back(std::move(s));
    }
  }
  cache.slots.push_back(slot);
  cache.last = cache.slots.size() - 1;
  return slot;
}

void sliceOf(int64_t count, int64_t elemSize, int64_t size, int64_t rank,
             int64_t &lo, int64_t &hi) {
  int64_t unit = std::max<int64_t>(1, 64 / elemSize);
  int64_t units = (count + unit - 1) / unit;
  int64_t per = (units + size - 1) / size * unit;
  lo = std::min(count, rank * per);
  hi = std::min(count, lo + per);
}

int64_t gridSize(const Collective &call) {
  int64_t devices = 1;
  for (int64_t k = 0; k < call.gridRank; ++k)
    devices *= call.dims[k];
  return devices;
}

int64_t memberDevice(int64_t gridRank, const int64_t *dims, uint64_t mask,
                     const int64_t *groups, int64_t leader, int64_t rank) {
  int64_t device = leader, stride = 1;
  for (int64_t k = gridRank - 1; k >= 0; --k) {
    if (groups && ((mask >> k) & 1)) {
      // The leader holds its group's first position along the axis.
      GroupsTable table(groups, dims[k]);
      int64_t first = (leader / stride) % dims[k];
      device += (table.members[table.position[first] + rank] - first) * stride;
    } else if ((mask >> k) & 1) {
      device += (rank % dims[k]) * stride;
      rank /= dims[k];
    }
    stride *= dims[k];
  }
  return device;
}

CallSite &currentCallSite() {
  thread_local CallSite site;
  return site;
}

namespace {

/// The collective each device is waiting in (its call site), for the
/// messages of the others: devices past the table's end are not tracked.
constexpr int64_t kTrackedDevices = 4096;
std::atomic<const char *> waitingIn[kTrackedDevices];

/// Marks `device` as waiting in `site` for the lifetime of the object.
class Waiting {
public:
  Waiting(int64_t device, const char *site) : device(device) {
    if (device < kTrackedDevices)
      waitingIn[device].store(site ? site : "a collective",
                              std::memory_order_relaxed);
  }
  ~Waiting() {
    if (device < kTrackedDevices)
      waitingIn[device].store(nullptr, std::memory_order_relaxed);
  }

private:
  int64_t device;
};

/// "`<site>`" or "<op> (no source location)".
std::string describe(const char *site, const char *op) {
  return site ? std::string("`") + site + "`"
              : std::string(op) + " (no source location)";
}

/// Yields of a member waiting for its group, after its spin and before it
/// sleeps.
constexpr int32_t kMeetingYields = 16;

} // namespace

namespace {

/// Waits until `arrived(rank)` holds for every member of the group: spins,
/// yields, then sleeps on the slot (SpinWait). Every member writes only its
/// own cache line to arrive and its peers read it, one transfer between
/// cores, where a shared counter would pass its line from every arriver to
/// the next. A device that never arrives would block its group forever, so
/// past the collective timeout this ends the process naming the members
/// that have not arrived and where they wait instead.
///
/// Arrivals are stored seq_cst before this is called, and `arrived` loads
/// seq_cst: against a sleeper's seq_cst registration, either the last to
/// arrive sees the sleeper or the sleeper sees it arrive.
template <typename Arrived>
void waitForGroup(GroupSlot &slot, const char *op, int64_t device,
                  const GroupPos &pos, Arrived arrived) {
  auto allArrived = [&] {
    for (int64_t rank = 0; rank < pos.size; ++rank)
      if (!arrived(rank))
        return false;
    return true;
  };
  // Peers can only be waiting for the last to arrive, which wakes them.
  if (allArrived()) {
    slot.waiter.wake();
    return;
  }
  const char *site = currentCallSite().description;
  Waiting waiting(device, site);
  // Where the group spans processes, the members here wait for the one
  // that waits for the other processes: it reports first when they fail.
  auto timeout = collectiveTimeout() * (slot.groupRanks.empty() ? 1 : 2);
  if (slot.waiter.wait(allArrived,
                       barrierSpinNanos.load(std::memory_order_relaxed),
                       kMeetingYields, timeout) ||
      allArrived())
    return;
  std::string missing;
  for (int64_t rank = 0; rank < pos.size; ++rank) {
    if (arrived(rank))
      continue;
    int64_t peer = slot.memberDevice(rank);
    const char *elsewhere =
        peer < kTrackedDevices ? waitingIn[peer].load(std::memory_order_relaxed)
                               : nullptr;
    missing += (missing.empty() ? "" : "; ") + std::string("device ") +
               std::to_string(peer) +
               (elsewhere ? std::string(", which waits in ") +
                                (std::strcmp(elsewhere, "a collective")
                                     ? "`" + std::string(elsewhere) + "`"
                                     : std::string("another collective"))
                          : std::string(", which is not in a collective"));
  }
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%g",
                std::chrono::duration<double>(collectiveTimeout()).count());
  uint64_t number = slot.members[pos.rank].started;
  failRun(describe(site, op) + ": device " + std::to_string(device) +
          " waited more than " + seconds +
          " s for the other devices of its group (at collective #" +
          std::to_string(number) + " of the group); never arrived: " + missing +
          ". Devices must run the same collectives in the same "
          "order; PCC_COLLECTIVE_TIMEOUT sets the limit in seconds");
}

} // namespace

void meet(GroupSlot &slot, const char *op, int64_t device,
          const GroupPos &pos) {
  MemberState *members = slot.members.get();
  uint64_t arrivals =
      members[pos.rank].arrivals.load(std::memory_order_relaxed) + 1;
  members[pos.rank].arrivals.store(arrivals, std::memory_order_seq_cst);
  waitForGroup(slot, op, device, pos, [&](int64_t rank) {
    return members[rank].arrivals.load(std::memory_order_seq_cst) >= arrivals;
  });
}

const Announcement *publishAndMeet(GroupSlot &slot, const char *op,
                                   int64_t device, const GroupPos &pos,
                                   const void *in, void *out,
                                   const Fingerprint &fingerprint, bool stage,
                                   size_t outBytes, size_t ownBytes) {
  uint64_t number = ++slot.members[pos.rank].started;
  int parity = int(number % 2);
  Announcement *announced = slot.announced[parity].get();
  Announcement &self = announced[pos.rank];
  if (stage) {
    size_t bytes = size_t(fingerprint.count * elemSize(fingerprint.dtype));
    void *copy = bytes <= sizeof(self.inlineInput)
                     ? self.inlineInput
                     : slot.staged[parity][pos.rank].bytes;
    // Around the part that only this member reads, which it takes from
    // its input (computeOwnPart).
    size_t ownFrom = size_t(pos.rank) * ownBytes, ownTo = ownFrom + ownBytes;
    std::memcpy(copy, in, ownFrom);
    std::memcpy(static_cast<char *>(copy) + ownTo,
                static_cast<const char *>(in) + ownTo, bytes - ownTo);
    in = copy;
    // The output is written right after the meeting: fetch its lines for
    // writing now, so that a cold output's misses overlap the wait.
    for (size_t at = 0; at < outBytes; at += 64)
      __builtin_prefetch(static_cast<char *>(out) + at, /*rw=*/1);
  }
  self.in = in;
  self.out = out;
  self.fingerprint = fingerprint;
  self.site = currentCallSite().description;
  // The number last: a peer that reads it sees the rest. Members meet when
  // they have all announced the same number: a member that has started
  // more collectives in the group than a peer waits for the peer to catch
  // up (or times out). One that skipped a collective pairs its next one
  // with the peers' current one, which the fingerprints catch when they
  // differ.
  self.number.store(number, std::memory_order_seq_cst);
  waitForGroup(slot, op, device, pos, [&](int64_t rank) {
    return announced[rank].number.load(std::memory_order_seq_cst) == number;
  });
  // Every member compares every fingerprint with its own, so that if any
  // differs, all of them stop here and none reads a peer's buffer.
  // The call sites must agree too: two sites of the same kind and type meet
  // only when devices took different paths, which the program's static
  // check did not see (a value that varies between devices, passed through
  // memory), and summing one site's values with another's would be a wrong
  // answer. A site is a constant of the program, the same address in every
  // device (null for direct calls of the C ABI).
  for (int64_t rank = 0; rank < pos.size; ++rank) {
    const Announcement &peer = announced[rank];
    if (peer.fingerprint == fingerprint && peer.site == self.site)
      continue;
    int64_t peerDevice = slot.memberDevice(rank);
    failRun("devices of a group met in different collectives: device " +
            std::to_string(device) + " runs " + describe(self.site, op) +
            " and device " + std::to_string(peerDevice) + " runs " +
            describe(peer.site, kindName(peer.fingerprint.kind / 4)) +
            " (collective #" + std::to_string(number) +
            " of their group). Devices must run the same collectives, with the "
            "same types and shapes, in the same order");
  }
  return announced;
}

//===----------------------------------------------------------------------===//
// Element operations
//===----------------------------------------------------------------------===//

namespace {

// Each Op has: Elem (the stored type), Acc (the accumulator), load, combine
// (in group-rank order: acc = combine(acc, next)), and store.

template <typename T> struct WrapSum {
  // Unsigned arithmetic: wraps without undefined behaviour, same bits.
  using Elem = std::make_unsigned_t<T>;
  using Acc = Elem;
  static Acc load(Elem x) { return x; }
  static Acc combine(Acc a, Acc b) { return Acc(a + b); }
  static Elem store(Acc a) { return a; }
};

template <typename T, bool IsMax> struct IntMinMax {
  using Elem = T;
  using Acc = T;
  static Acc load(Elem x) { return x; }
  static Acc combine(Acc a, Acc b) { return (IsMax ? b > a : b < a) ? b : a; }
  static Elem store(Acc a) { return a; }
};

template <typename T> struct FloatSum {
  using Elem = T;
  using Acc = T;
  static Acc load(Elem x) { return x; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Elem store(Acc a) { return a; }
};

/// NaN-propagating max/min: the first NaN in rank order wins, so the result
/// (payload included) does not depend on who computes it.
template <typename T, bool IsMax> struct FloatMinMax {
  using Elem = T;
  using Acc = T;
  static Acc load(Elem x) { return x; }
  static Acc combine(Acc a, Acc b) {
    if (a != a)
      return a;
    if (b != b)
      return b;
    return (IsMax ? b > a : b < a) ? b : a;
  }
  static Elem store(Acc a) { return a; }
};

/// 16-bit float sums accumulate in f32 and round once, at the store.
template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
struct Half16Sum {
  using Elem = uint16_t;
  using Acc = float;
  static Acc load(Elem x) { return ToFloat(x); }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Elem store(Acc a) { return FromFloat(a); }
};

/// 16-bit float max/min select one of the inputs, so they work on the bits
/// (no rounding, NaN payloads kept) and only compare through f32.
template <float (*ToFloat)(uint16_t), bool IsMax> struct Half16MinMax {
  using Elem = uint16_t;
  using Acc = uint16_t;
  static Acc load(Elem x) { return x; }
  static Acc combine(Acc a, Acc b) {
    float fa = ToFloat(a), fb = ToFloat(b);
    if (fa != fa)
      return a;
    if (fb != fb)
      return b;
    return (IsMax ? fb > fa : fb < fa) ? b : a;
  }
  static Elem store(Acc a) { return a; }
};

/// Messages from this size on are written with non-temporal (streaming)
/// stores: they bypass the cache, which they would only flush, and skip
/// reading each line before writing it, a third of the memory traffic.
constexpr int64_t kStreamBytes = int64_t(1) << 20;

/// A member that reads this many bytes of inputs or more reads them from
/// memory, not from the caches.
constexpr int64_t kMemoryBoundBytes = int64_t(1) << 20;

/// The blocks that members claim of a message read from memory (shareWork):
/// small enough to even out the members' shares at the end, large enough
/// that a claim costs nothing beside one.
constexpr int64_t kClaimBytes = int64_t(64) << 10;

/// Copies `bytes` from `src` to `dst` with streaming stores where the target
/// has them; call storeFence() before other threads read `dst`.
void streamCopy(void *dst, const void *src, size_t bytes) {
#if defined(__x86_64__)
  auto *d = static_cast<char *>(dst);
  const auto *s = static_cast<const char *>(src);
  size_t head =
      std::min(bytes, (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16);
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  for (; bytes >= 16; bytes -= 16, d += 16, s += 16)
    _mm_stream_si128(reinterpret_cast<__m128i *>(d),
                     _mm_loadu_si128(reinterpret_cast<const __m128i *>(s)));
  std::memcpy(d, s, bytes);
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Orders streaming stores before the stores that follow (a barrier's).
void storeFence() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

/// Reduces elements [lo, hi) over all members' inputs in rank order and
/// writes the result into the outputs of members [firstOut, endOut), at
/// element index - `outShift` (0 for an all-reduce, the start of the own
/// part for a reduce-scatter), with streaming stores if `stream` (call
/// storeFence() after the last slice); `fromMemory` if the inputs are read
/// from memory, not from the caches.
///
/// Writing straight into every output, rather than into the own output
/// followed by an all-gather copy phase, is correct with in == out because
/// each element is read (from all inputs) and then written (to all outputs)
/// by exactly one member, which finishes reading a block before writing it;
/// no other member reads that element. It also saves a barrier and a pass.
///
/// The last pass over the inputs writes the first output (or, streaming, a
/// buffer in L1), so that no pass is a plain copy: compilers turn those
/// into `rep movs`, whose start-up costs more than a small message's sum.
template <typename Op>
void reduceSlice(const Announcement *m, int64_t n, int64_t firstOut,
                 int64_t endOut, int64_t lo, int64_t hi, int64_t outShift,
                 bool stream, bool fromMemory) {
  using Elem = typename Op::Elem;
  using Acc = typename Op::Acc;
  // The accumulator stays in L1. Inputs that come from memory go in small
  // blocks, which keep the reads of every input and the writes in flight
  // together (psum at 16 MiB per device: 0.64-0.84x the time of blocks of
  // 1024 on a 2-core AMD EPYC VM); inputs that the caches hold, in larger
  // ones, with fewer copies per element (256 KiB: 1.28x the time in blocks
  // of 64).
  constexpr int64_t kLargeBlock = 1024, kSmallBlock = 64;
  const int64_t block = fromMemory ? kSmallBlock : kLargeBlock;
  Acc acc[kLargeBlock];
  Elem result[kLargeBlock];
  auto input = [&](int64_t rank, int64_t base) {
    return static_cast<const Elem *>(m[rank].in) + base;
  };
  for (int64_t base = lo; base < hi; base += block) {
    int64_t len = std::min(block, hi - base);
    Elem *first = static_cast<Elem *>(m[firstOut].out) + (base - outShift);
    Elem *dst = stream ? result : first;
    const Elem *a = input(0, base);
    if (n == 1) {
      for (int64_t i = 0; i < len; ++i)
        dst[i] = Op::store(Op::load(a[i]));
    } else if (n == 2) {
      const Elem *b = input(1, base);
      for (int64_t i = 0; i < len; ++i)
        dst[i] = Op::store(Op::combine(Op::load(a[i]), Op::load(b[i])));
    } else {
      const Elem *b = input(1, base);
      for (int64_t i = 0; i < len; ++i)
        acc[i] = Op::combine(Op::load(a[i]), Op::load(b[i]));
      for (int64_t j = 2; j + 1 < n; ++j) {
        const Elem *src = input(j, base);
        for (int64_t i = 0; i < len; ++i)
          acc[i] = Op::combine(acc[i], Op::load(src[i]));
      }
      const Elem *last = input(n - 1, base);
      for (int64_t i = 0; i < len; ++i)
        dst[i] = Op::store(Op::combine(acc[i], Op::load(last[i])));
    }
    size_t bytes = size_t(len) * sizeof(Elem);
    for (int64_t k = stream ? firstOut : firstOut + 1; k < endOut; ++k) {
      Elem *out = static_cast<Elem *>(m[k].out) + (base - outShift);
      if (stream)
        streamCopy(out, result, bytes);
      else if (out != dst)
        std::memcpy(out, dst, bytes);
    }
  }
}

using SliceFn = void (*)(const Announcement *, int64_t, int64_t, int64_t,
                         int64_t, int64_t, int64_t, bool, bool);

template <typename T> SliceFn pickInt(int32_t reduction) {
  switch (reduction) {
  case PCC_SUM:
    return reduceSlice<WrapSum<T>>;
  case PCC_MAX:
    return reduceSlice<IntMinMax<T, true>>;
  case PCC_MIN:
    return reduceSlice<IntMinMax<T, false>>;
  }
  return nullptr;
}

template <typename T> SliceFn pickFloat(int32_t reduction) {
  switch (reduction) {
  case PCC_SUM:
    return reduceSlice<FloatSum<T>>;
  case PCC_MAX:
    return reduceSlice<FloatMinMax<T, true>>;
  case PCC_MIN:
    return reduceSlice<FloatMinMax<T, false>>;
  }
  return nullptr;
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
SliceFn pickHalf(int32_t reduction) {
  switch (reduction) {
  case PCC_SUM:
    return reduceSlice<Half16Sum<ToFloat, FromFloat>>;
  case PCC_MAX:
    return reduceSlice<Half16MinMax<ToFloat, true>>;
  case PCC_MIN:
    return reduceSlice<Half16MinMax<ToFloat, false>>;
  }
  return nullptr;
}

/// The slice kernel for (reduction, dtype), or null if unsupported.
SliceFn pickReduce(int32_t reduction, int32_t dtype) {
  switch (dtype) {
  case PCC_I8:
    return pickInt<int8_t>(reduction);
  case PCC_I16:
    return pickInt<int16_t>(reduction);
  case PCC_I32:
    return pickInt<int32_t>(reduction);
  case PCC_I64:
    return pickInt<int64_t>(reduction);
  case PCC_F16:
    return pickHalf<halfToFloat, floatToHalf>(reduction);
  case PCC_BF16:
    return pickHalf<bf16ToFloat, floatToBf16>(reduction);
  case PCC_F32:
    return pickFloat<float>(reduction);
  case PCC_F64:
    return pickFloat<double>(reduction);
  }
  return nullptr;
}

} // namespace

int64_t elemSize(int32_t dtype) {
  switch (dtype) {
  case PCC_I8:
  case PCC_I1:
    return 1;
  case PCC_I16:
  case PCC_F16:
  case PCC_BF16:
    return 2;
  case PCC_I32:
  case PCC_F32:
    return 4;
  case PCC_I64:
  case PCC_F64:
    return 8;
  }
  return 0;
}

bool isValidReduction(int32_t reduction, int32_t dtype) {
  return pickReduce(reduction, dtype) != nullptr;
}

void hostReduce(int32_t reduction, int32_t dtype, const void *const *inputs,
                int64_t n, void *out, int64_t count) {
  std::unique_ptr<Announcement[]> members(new Announcement[n]);
  for (int64_t j = 0; j < n; ++j)
    members[j].in = inputs[j];
  members[0].out = out;
  pickReduce(reduction, dtype)(
      members.get(), n, 0, 1, 0, count, /*outShift=*/0, /*stream=*/false,
      /*fromMemory=*/count * n * elemSize(dtype) >= kMemoryBoundBytes);
}

} // namespace pcc::runtime

namespace pcc::runtime {
namespace {

/// Copies `bytes` from `src` to `dst`, streaming if `stream`.
void copyOut(void *dst, const void *src, size_t bytes, bool stream) {
  if (stream)
    streamCopy(dst, src, bytes);
  else
    std::memcpy(dst, src, bytes);
}

/// Runs `work(lo, hi)` on this member's share of elements [0, count) of
/// `elem` bytes each. With `claim`, the members of `sharing` take blocks of
/// kClaimBytes one at a time from the group's counter until none is left,
/// so that one whose thread runs slower does less of the work: 8 devices on
/// 2 pinned threads, in stretches of a process where one thread moved its
/// fixed slices 1.5x slower than the other (which then waited), took
/// 0.88x the time of fixed slices, and 1.03x where both threads ran alike.
/// Otherwise each member takes a fixed slice (sliceOf).
template <typename Work>
void shareWork(GroupSlot &slot, const GroupPos &sharing, int64_t count,
               int64_t elem, bool claim, Work work) {
  if (!claim) {
    int64_t lo, hi;
    sliceOf(count, elem, sharing.size, sharing.rank, lo, hi);
    if (lo < hi)
      work(lo, hi);
    return;
  }
  int64_t unit = kClaimBytes / elem;
  uint64_t blocks = uint64_t((count + unit - 1) / unit);
  uint64_t &before = slot.members[sharing.rank].claimsBefore;
  // The members meet after this collective, so none claims for the next
  // one before every claim of this one is made.
  for (;;) {
    uint64_t block =
        slot.claims.fetch_add(1, std::memory_order_relaxed) - before;
    if (block >= blocks)
      break;
    int64_t lo = int64_t(block) * unit;
    work(lo, std::min(count, lo + unit));
  }
  // Each member's last claim is past the blocks: the collective takes
  // blocks + sharing.size claims, which every member counts alike.
  before += blocks + uint64_t(sharing.size);
}

} // namespace

void reduceRange(const Collective &call, const Announcement *members,
                 const GroupPos &pos, const Announcement *outputs,
                 GroupSlot &slot, const GroupPos &sharing, int64_t lo,
                 int64_t hi) {
  // Each member reduces blocks into every sharing member's output.
  SliceFn reduce = pickReduce(call.reduction, call.dtype);
  int64_t elem = elemSize(call.dtype);
  bool stream = int64_t(call.outBytes(pos.size)) >= kStreamBytes;
  bool fromMemory =
      (hi - lo) * elem * pos.size / sharing.size >= kMemoryBoundBytes;
  int64_t firstOut = outputs - members, endOut = firstOut + sharing.size;
  shareWork(slot, sharing, hi - lo, elem, /*claim=*/fromMemory,
            [&](int64_t first, int64_t end) {
              reduce(members, pos.size, firstOut, endOut, lo + first, lo + end,
                     0, stream, fromMemory);
            });
  // Once, not after every block: a fence waits for every streaming store
  // still in flight (one per claimed block made psum over two groups of 4
  // devices, 4 MiB each, take 1.12x the time of fixed slices; one, 0.99x).
  if (stream)
    storeFence();
}

void computeOwnPart(const Collective &call, const Announcement *members,
                    const GroupPos &pos, const Announcement *outputs,
                    GroupSlot &slot, const GroupPos &sharing, bool stage) {
  size_t inBytes = call.inBytes(), outBytes = call.outBytes(pos.size);
  // A reduce-scatter writes a part of the message but reads a whole
  // message's worth, and streams as an all-reduce of it would (psum_scatter
  // at N = 2, 1 MiB per device: 0.83x the time of regular stores).
  bool stream = int64_t(call.kind == Collective::ReduceScatter ? inBytes
                                                               : outBytes) >=
                kStreamBytes;
  auto input = [&](int64_t rank, size_t offset) {
    return static_cast<const char *>(members[rank].in) + offset;
  };
  char *out = static_cast<char *>(call.out);
  // The reductions write through outputs[0..sharing.size), which
  // reduceSlice indexes from `members`.
  int64_t outBase = outputs - members;
  int64_t elem = elemSize(call.dtype);
  // A large message whose members are all here (not split over processes)
  // is shared out in blocks of every member's output: `work(k, lo, hi)`
  // writes elements [lo, hi) of member k's, `perOutput` elements each.
  bool claim = stream && !stage && sharing.size == pos.size;
  auto shareOutputs = [&](int64_t perOutput, auto work) {
    shareWork(slot, sharing, pos.size * perOutput, elem, /*claim=*/true,
              [&](int64_t lo, int64_t hi) {
                for (int64_t k = lo / perOutput; k * perOutput < hi; ++k)
                  work(k, std::max(lo - k * perOutput, int64_t(0)),
                       std::min(hi - k * perOutput, perOutput));
              });
  };
  switch (call.kind) {
  case Collective::AllReduce: {
    SliceFn reduce = pickReduce(call.reduction, call.dtype);
    if (stage) {
      // Each member reduces the whole message from the staged copies into
      // its own output: for small messages a meeting costs more than the
      // work.
      reduce(members, pos.size, outBase + sharing.rank,
             outBase + sharing.rank + 1, 0, call.count, 0, /*stream=*/false,
             /*fromMemory=*/false);
      return;
    }
    reduceRange(call, members, pos, outputs, slot, sharing, 0, call.count);
    return;
  }
  case Collective::ReduceScatter: {
    // Part k of the message, reduced, is member k's output.
    int64_t part = call.count / pos.size;
    SliceFn reduce = pickReduce(call.reduction, call.dtype);
    bool fromMemory = part * pos.size * elem >= kMemoryBoundBytes;
    if (claim) {
      shareOutputs(part, [&](int64_t k, int64_t lo, int64_t hi) {
        reduce(members, pos.size, outBase + k, outBase + k + 1, k * part + lo,
               k * part + hi, k * part, stream, fromMemory);
      });
      break;
    }
    reduce(members, pos.size, outBase + sharing.rank,
           outBase + sharing.rank + 1, pos.rank * part, (pos.rank + 1) * part,
           pos.rank * part, stream, fromMemory);
    break;
  }
  case Collective::AllGather: {
    if (stage) {
      // Staged inputs: the peers may leave before the others finish, so
      // each member pulls every input into its own output.
      for (int64_t j = 0; j < pos.size; ++j)
        copyOut(out + j * inBytes, input(j, 0), inBytes, stream);
      break;
    }
    // The sharing members take parts of the concatenated inputs and write
    // each into every output, a block at a time: the block is read from
    // memory once and then from L1, so the inputs are read once in all
    // where pulling reads each of them once per output.
    shareWork(slot, sharing, pos.size * call.count, elem, /*claim=*/stream,
              [&](int64_t first, int64_t end) {
                constexpr size_t kBlock = 8192;
                for (size_t at = size_t(first * elem),
                            stop = size_t(end * elem);
                     at < stop;) {
                  size_t from = at % inBytes;
                  size_t len = std::min({kBlock, stop - at, inBytes - from});
                  const char *src = input(int64_t(at / inBytes), from);
                  for (int64_t k = 0; k < sharing.size; ++k)
                    copyOut(static_cast<char *>(outputs[k].out) + at, src, len,
                            stream);
                  at += len;
                }
              });
    break;
  }
  case Collective::AllToAll: {
    // Chunk j of member k's output is chunk k of member j's input.
    size_t chunk = inBytes / size_t(pos.size);
    if (claim) {
      int64_t chunkElems = call.count / pos.size;
      shareOutputs(call.count, [&](int64_t k, int64_t lo, int64_t hi) {
        for (int64_t e = lo; e < hi;) {
          int64_t j = e / chunkElems,
                  len = std::min(hi, (j + 1) * chunkElems) - e;
          copyOut(static_cast<char *>(outputs[k].out) + e * elem,
                  input(j, size_t((k * chunkElems + e % chunkElems) * elem)),
                  size_t(len * elem), stream);
          e += len;
        }
      });
      break;
    }
    // Member r pulls chunk r of every input. Its own chunk comes from its
    // own input, which it may not have staged (publishAndMeet's ownBytes).
    size_t at = size_t(pos.rank) * chunk;
    for (int64_t j = 0; j < pos.size; ++j)
      copyOut(out + j * chunk,
              j == pos.rank ? static_cast<const char *>(call.in) + at
                            : input(j, at),
              chunk, stream);
    break;
  }
  case Collective::Permute: {
    if (claim) {
      shareOutputs(call.count, [&](int64_t k, int64_t lo, int64_t hi) {
        char *to = static_cast<char *>(outputs[k].out) + lo * elem;
        size_t bytes = size_t((hi - lo) * elem);
        if (call.sources[k] < 0)
          std::memset(to, 0, bytes);
        else
          copyOut(to, input(call.sources[k], size_t(lo * elem)), bytes, stream);
      });
      break;
    }
    int64_t source = call.sources[pos.rank];
    if (source < 0)
      std::memset(out, 0, inBytes);
    else
      copyOut(out, input(source, 0), inBytes, stream);
    break;
  }
  }
  if (stream)
    storeFence();
}

namespace {

/// The host's collectives between device threads. Each member publishes
/// its buffers (small inputs staged in the slot), meets its group, computes
/// its own part reading its peers' inputs, and, unless the inputs were
/// staged, meets the group again before anyone may reuse its input.
void hostCollective(const Collective &call, const GroupPos &pos,
                    trace::CollectiveSpans &spans) {
  size_t outBytes = call.outBytes(pos.size);
  const char *op = call.name();
  GroupSlot *slot = findSlot(call, pos);
  Fingerprint fingerprint{fingerprintKind(call), call.dtype, call.count,
                          currentCallSite().shape};
  bool stage = int64_t(call.inBytes()) <= kStagedBytes;
  spans.enter(trace::Phase::Wait);
  // An all-to-all's own chunk stays where it is: no peer reads it.
  size_t ownBytes =
      call.kind == Collective::AllToAll ? call.inBytes() / size_t(pos.size) : 0;
  const Announcement *members =
      publishAndMeet(*slot, op, call.device, pos, call.in, call.out,
                     fingerprint, stage, outBytes, ownBytes);
  spans.enter(trace::Phase::Transfer);
  computeOwnPart(call, members, pos, members, *slot, pos, stage);
  // The peers' inputs must stay untouched until everyone has read them.
  if (!stage) {
    spans.enter(trace::Phase::Wait);
    meet(*slot, op, call.device, pos);
  }
}

/// The collective `call`, its phases recorded in `spans`.
void runCollective(const Collective &call, trace::CollectiveSpans &spans) {
  GroupPos pos = checkAndLocate(call);
  // Every member has the same count, so all skip the exchange together.
  if (call.count == 0)
    return;
  if (pos.size == 1) {
    // One member: its own value (a sum of one f16/bf16 value would round an
    // exact f32 back to itself), or zeros where it receives from nobody.
    if (call.kind == Collective::Permute && call.sources[0] < 0)
      std::memset(call.out, 0, call.inBytes());
    else if (call.in != call.out)
      std::memmove(call.out, call.in, call.inBytes());
    return;
  }
  // Under mpirun, a group whose members are in several processes.
  if (multiProcess() && runAcrossProcesses(call, pos, &spans))
    return;
  hostCollective(call, pos, spans);
}

} // namespace

void runHostCollective(const Collective &call) {
  if (!trace::on()) {
    trace::CollectiveSpans untraced;
    return runCollective(call, untraced);
  }
  trace::CollectiveSpans spans(call.device, call.name(),
                               currentCallSite().description);
  runCollective(call, spans);
  spans.finish();
}

} // namespace pcc::runtime

using namespace pcc::runtime;

extern "C" void pcc_all_reduce(int64_t device, int64_t grid_rank,
                               const int64_t *grid_dims, uint64_t axes_mask,
                               int32_t reduction, int32_t dtype, const void *in,
                               void *out, int64_t count) {
  runHostCollective({Collective::AllReduce, device, grid_rank, grid_dims,
                     axes_mask, nullptr, reduction, dtype, nullptr, in, out,
                     count});
}

extern "C" void pcc_all_gather(int64_t device, int64_t grid_rank,
                               const int64_t *grid_dims, uint64_t axes_mask,
                               int32_t dtype, const void *in, void *out,
                               int64_t count) {
  runHostCollective({Collective::AllGather, device, grid_rank, grid_dims,
                     axes_mask, nullptr, 0, dtype, nullptr, in, out, count});
}

extern "C" void pcc_reduce_scatter(int64_t device, int64_t grid_rank,
                                   const int64_t *grid_dims, uint64_t axes_mask,
                                   const int64_t *groups, int32_t reduction,
                                   int32_t dtype, const void *in, void *out,
                                   int64_t count) {
  runHostCollective({Collective::ReduceScatter, device, grid_rank, grid_dims,
                     axes_mask, groups, reduction, dtype, nullptr, in, out,
                     count});
}

extern "C" void pcc_all_to_all(int64_t device, int64_t grid_rank,
                               const int64_t *grid_dims, uint64_t axes_mask,
                               const int64_t *groups, int32_t dtype,
                               const void *in, void *out, int64_t count) {
  runHostCollective({Collective::AllToAll, device, grid_rank, grid_dims,
                     axes_mask, groups, 0, dtype, nullptr, in, out, count});
}

extern "C" void pcc_permute(int64_t device, int64_t grid_rank,
                            const int64_t *grid_dims, uint64_t axes_mask,
                            const int64_t *sources, int32_t dtype,
                            const void *in, void *out, int64_t count) {
  runHostCollective({Collective::Permute, device, grid_rank, grid_dims,
                     axes_mask, nullptr, 0, dtype, sources, in, out, count});
}
