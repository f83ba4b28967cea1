//===- ProcessCollectives.cpp - Collectives between processes -------------===//
//
// A group whose members run in several processes of an MPI job. The members
// in this process meet in a slot of their own (Collectives.cpp), announcing
// their buffers; the first of them sends those inputs to every other
// process of the group and receives theirs, each process's messages headed
// by what it runs (kind, type, shape, call site), checked before any data
// is read; then each member computes its share from every input of the
// group in group-rank order, with the same code as within one process, so
// that results are bitwise those of one process whatever the number of
// processes. A last meeting keeps the inputs and the received copies until
// every member here has read them.
//
// The messages are point to point, tagged by the group, so that groups that
// run at the same time (and their MPI calls, one thread at a time) do not
// wait for each other; a process that does not send within the collective
// timeout ends the run with an error naming it. Between processes of one
// machine, the headers and the small inputs that travel with them go
// through the group's mailboxes in shared memory instead (Processes.h),
// without an MPI call.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "Fibers.h"
#include "Processes.h"
#include "RuntimeError.h"
#include "Sync.h"
#include "Trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace pcc::runtime {
namespace {

/// What a process sends each other process of a group first, for each
/// collective: what it runs, so that the receiver checks it before it
/// reads the data, which follows in the same message when it is small. The
/// call site travels as a hash, its text only when two processes differ
/// (siteOfPeer): a small collective's whole message is then about a
/// hundred bytes, which MPI sends inline (Open MPI's shared-memory path
/// copies up to 256 B straight into the receiver's queue).
struct Header {
  uint64_t group = 0;  ///< GroupState::key of the sender's group.
  uint64_t number = 0; ///< The collective's number in the group, from 1.
  Fingerprint fingerprint;
  int64_t device = 0; ///< The sender's first member.
  uint64_t site = 0;  ///< siteHash of the call site's text.
  /// Whether only headers travel (agreeAcrossProcesses: NCCL moves the
  /// data next), so that processes that chose different ways are told.
  uint64_t headersOnly = 0;
};

/// Inputs up to this many bytes in all travel in the header's message: one
/// message per process pair and collective instead of two, which is most
/// of a small collective's time.
constexpr size_t kInlineBytes = 16 << 10;

/// A header and the inputs that travel with it.
struct alignas(64) HeaderMessage {
  Header header;
  alignas(64) char inputs[kInlineBytes];
};
static_assert(sizeof(HeaderMessage) <= size_t(kMailboxBytes));

/// The tag of the messages that carry call sites' texts (siteOfPeer).
/// Messages of a group between two processes that share mailboxes take
/// the mailboxes' tag (1 + their index: distinct for the groups that use
/// them), others a hash of the group above those. Two groups whose hashes
/// meet (one chance in 2^31 per pair, with Open MPI) stop the run with an
/// internal error when their headers cross (checkHeader).
constexpr int64_t kSiteTag = 0;
constexpr int64_t kFirstHashTag = 1 + kMailboxesPerPair;

/// MPI for this thread from the first call that needs it: collectives
/// whose messages all go by mailboxes take no turn at it.
class LazyMpiLock {
public:
  const MpiLock &operator*() {
    if (!lock)
      lock.emplace();
    return *lock;
  }

private:
  std::optional<MpiLock> lock;
};

/// FNV-1a of a call site's text; 0 for none.
uint64_t siteHash(const char *site) {
  if (!site || !*site)
    return 0;
  uint64_t hash = 1469598103934665603ull;
  for (const char *c = site; *c; ++c) {
    hash ^= uint64_t(static_cast<unsigned char>(*c));
    hash *= 1099511628211ull;
  }
  return hash | 1;
}

/// Another process that has members of the group.
struct Peer {
  int64_t process;
  /// Its place among the group's processes, in process order.
  int64_t position = 0;
  /// Its members' group ranks, in order.
  std::vector<int64_t> ranks;
  /// The group's mailboxes with it, on the same machine: its headers (and
  /// the inputs with them) come there, else by MPI into `storage`.
  Mailboxes mailboxes;
  /// The tag of the group's MPI messages with it.
  int64_t tag = 0;
  std::unique_ptr<HeaderMessage> storage;
  /// What it sends first (in `storage` or its mailbox), and how many bytes
  /// of it.
  const HeaderMessage *first = nullptr;
  Message headerMessage;
  int64_t headerBytes = 0;
  /// Its inputs (or slices of them) when they do not travel in `first`.
  std::vector<Message> data;
};

/// The exchange state of a group that spans processes (GroupSlot::
/// processState, stateOf), used by this process's first member only.
struct GroupState {
  uint64_t key = 0;
  /// The tag of its MPI messages with processes it has no mailboxes with.
  int64_t tag = 0;
  std::vector<Peer> peers;
  /// Whether some peer has no mailboxes with this process: own's header
  /// then goes by MPI, its inputs written after it.
  bool someByMpi = false;
  /// The group's processes, and this one's place among them.
  int64_t processes = 1;
  int64_t position = 0;
  /// What this process sends first.
  std::unique_ptr<HeaderMessage> own{new HeaderMessage};
  /// The call site in own's header.
  const char *site = nullptr;
  std::vector<Message> sends;
  /// The group's inputs in group-rank order, then this process's members'
  /// outputs (computeOwnPart's `members` and `outputs`).
  std::unique_ptr<Announcement[]> everyone;
  /// The other processes' inputs when they do not travel with their
  /// headers (64-byte aligned, never freed: the state lives as long as the
  /// process).
  char *received = nullptr;
  size_t capacity = 0;
  /// When traced: when the last other process's header had come in the
  /// current collective (it had reached the collective).
  trace::Clock::time_point headersCame;
};

/// A name of the group that every process computes alike: a hash of the
/// grid, the axes, the group's first member and the groups table.
uint64_t groupKey(const Collective &call, int64_t leader) {
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&](uint64_t value) {
    hash ^= value;
    hash *= 1099511628211ull;
  };
  for (int64_t k = 0; k < call.gridRank; ++k)
    mix(uint64_t(call.dims[k]));
  mix(call.mask);
  mix(uint64_t(leader));
  if (call.groups) {
    int64_t axis = __builtin_ctzll(call.mask);
    for (int64_t k = 0; k < 4 * call.dims[axis]; ++k)
      mix(uint64_t(call.groups[k]));
  }
  return hash;
}

GroupState *createState(const Collective &call, const GroupPos &pos,
                        const GroupSlot &slot, uint64_t key) {
  auto *state = new GroupState;
  state->key = key;
  state->tag =
      kFirstHashTag +
      int64_t(key % uint64_t(processLayout().tagLimit - kFirstHashTag + 1));
  int64_t devices = gridSize(call);
  for (int64_t rank = 0; rank < pos.size; ++rank) {
    int64_t process =
        processOfDevice(memberDevice(call.gridRank, call.dims, call.mask,
                                     call.groups, pos.leader, rank),
                        devices);
    if (process == processLayout().rank)
      continue;
    auto peer =
        std::find_if(state->peers.begin(), state->peers.end(),
                     [&](const Peer &p) { return p.process == process; });
    if (peer == state->peers.end()) {
      state->peers.emplace_back();
      state->peers.back().process = process;
      peer = state->peers.end() - 1;
    }
    peer->ranks.push_back(rank);
  }
  state->processes = int64_t(state->peers.size()) + 1;
  for (Peer &peer : state->peers) {
    peer.mailboxes = mailboxesWith(peer.process, state->key);
    peer.tag = peer.mailboxes ? 1 + peer.mailboxes.index() : state->tag;
    if (!peer.mailboxes) {
      peer.storage.reset(new HeaderMessage);
      state->someByMpi = true;
    }
    peer.position = 0;
    for (const Peer &other : state->peers)
      peer.position += other.process < peer.process;
    if (processLayout().rank < peer.process)
      ++peer.position;
    else
      ++state->position;
  }
  state->everyone.reset(
      new Announcement[size_t(pos.size) + slot.groupRanks.size()]);
  return state;
}

/// The exchange state of the group of `call` in `slot`. Slots of one group
/// share it: two pmaps whose groups tables are equal have two copies of the
/// table, and so two slots, but one group, whose collectives every process
/// numbers in one sequence (and whose mailboxes are one pair).
GroupState *stateOf(const Collective &call, const GroupPos &pos,
                    const GroupSlot &slot) {
  static std::mutex mutex;
  static auto *states = new std::unordered_map<uint64_t, GroupState *>;
  uint64_t key = groupKey(call, pos.leader);
  std::lock_guard<std::mutex> lock(mutex);
  GroupState *&state = (*states)[key];
  if (!state)
    state = createState(call, pos, slot, key);
  return state;
}

/// The text of the call site that `peer` runs, once its header has shown
/// that it runs another collective than this process: both processes find
/// that out, and swap their sites' texts (each headed by the group's key).
/// Empty when none arrives within a few seconds.
std::string siteOfPeer(const Peer &peer, const GroupState &state,
                       const char *where, const MpiLock &lock) {
  constexpr size_t kTextBytes = 2048;
  struct SiteMessage {
    uint64_t group;
    char text[kTextBytes];
  };
  auto own = std::make_unique<SiteMessage>();
  auto other = std::make_unique<SiteMessage>();
  own->group = state.key;
  std::snprintf(own->text, kTextBytes, "%s", state.site ? state.site : "");
  Message send, receive;
  postReceive(receive, other.get(), sizeof(SiteMessage), peer.process,
              kSiteTag, where, lock);
  postSend(send,
           own.get(), int64_t(offsetof(SiteMessage, text) +
                              std::strlen(own->text) + 1),
           peer.process, kSiteTag, where, lock);
  auto deadline = std::chrono::steady_clock::now() +
                  std::min<std::chrono::steady_clock::duration>(
                      collectiveTimeout(), std::chrono::seconds(5));
  // Both messages are tested at each round.
  while (!(testMessage(receive, where, lock) & testMessage(send, where, lock)))
    if (std::chrono::steady_clock::now() >= deadline)
      return "";
  if (other->group != state.key ||
      receive.arrived <= int64_t(offsetof(SiteMessage, text)))
    return "";
  other->text[kTextBytes - 1] = 0;
  return other->text;
}

/// "`site`", or "<op> (no source location)".
std::string describe(const char *site, const char *op) {
  return site && *site ? std::string("`") + site + "`"
                       : std::string(op) + " (no source location)";
}

/// Checks what `peer` says it runs against what this process runs. Both
/// processes see the same two headers: the first of them reports a
/// mismatch, the other waits for the launcher to end it.
void checkHeader(const Peer &peer, const GroupState &state, const char *op,
                 const char *where, LazyMpiLock &lock) {
  const Header &own = state.own->header, &other = peer.first->header;
  if (other.group != own.group)
    failRun("internal error: two groups of devices share an MPI tag (" +
            std::to_string(state.tag) + "); please report it");
  if (other.number == own.number && other.fingerprint == own.fingerprint &&
      other.site == own.site) {
    if (other.headersOnly == own.headersOnly)
      return;
    auto way = [](const Header &header) {
      return header.headersOnly ? " moves its data with NCCL (each device "
                                  "of its machine has a GPU of its own)"
                                : " moves its data through the host";
    };
    auto fail =
        processLayout().rank < peer.process ? failRun : failRunAfterPeer;
    fail(describe(state.site, op) +
         ": the processes of a group chose "
         "different ways to run it: process " +
         std::to_string(processLayout().rank) + way(own) + ", process " +
         std::to_string(peer.process) + way(other) +
         ". Run the same number of processes, with the same number of "
         "GPUs, on every machine");
  }
  static const char *const kKinds[] = {"pcc_all_reduce", "pcc_all_gather",
                                       "pcc_reduce_scatter", "pcc_all_to_all",
                                       "pcc_permute"};
  int32_t kind = other.fingerprint.kind / 4;
  // Both ends see the same two headers, and so agree on whether to swap.
  std::string otherSite =
      own.site || other.site ? siteOfPeer(peer, state, where, *lock) : "";
  const char *otherOp =
      kind >= 0 && kind < 5 ? kKinds[kind] : "another collective";
  auto fail = processLayout().rank < peer.process ? failRun : failRunAfterPeer;
  fail("devices of a group met in different collectives: device " +
       std::to_string(own.device) + " (process " +
       std::to_string(processLayout().rank) + ") runs " +
       describe(state.site, op) + " and device " +
       std::to_string(other.device) + " (process " +
       std::to_string(peer.process) + ") runs " +
       (other.site && otherSite.empty()
            ? std::string(otherOp) + " (its call site did not arrive)"
            : describe(otherSite.c_str(), otherOp)) +
       " (collective #" + std::to_string(own.number) +
       " of their group). Devices must run the same collectives, with the "
       "same types and shapes, in the same order");
}

/// Posts the messages of `bytes` at `data` in pieces MPI takes.
template <typename Post, typename Data>
void postPieces(std::vector<Message> &messages, Data *data, size_t bytes,
                Post post) {
  for (size_t at = 0; at < bytes; at += size_t(kMaxMessageBytes)) {
    messages.emplace_back();
    post(messages.back(), data + at,
         int64_t(std::min(bytes - at, size_t(kMaxMessageBytes))));
  }
}

/// Waits between polls of MPI: lets sibling fibers run (the devices that
/// other processes wait for may be among them), spins briefly (one pause:
/// on some CPUs it takes 140 cycles, and a message may have come), then
/// yields the core and naps, since MPI wakes nobody.
void pause(std::chrono::steady_clock::duration waited) {
  if (yieldToSiblingDevice())
    return;
  if (waited < std::chrono::microseconds(50)) {
    cpuRelax();
  } else if (waited < std::chrono::milliseconds(1)) {
    yieldThread();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

/// All-reduces of at least this many bytes per member are split between
/// the processes: each receives one slice of every input, reduces it, and
/// sends the reduced slice back (a reduce-scatter, then an all-gather, as
/// MPI_Allreduce does for long messages), moving and reducing 1/P of the
/// data that whole inputs would. Smaller ones travel whole, in one message
/// per pair of processes.
constexpr size_t kSplitBytes = 32 << 10;

/// Elements [lo, hi) of an all-reduce split between `processes`: those of
/// the process at `position` (in process order).
void processSlice(const Collective &call, int64_t processes, int64_t position,
                  int64_t &lo, int64_t &hi) {
  sliceOf(call.count, elemSize(call.dtype), processes, position, lo, hi);
}

/// What MPI's errors name: the collective's call site, or its op.
const char *mpiWhere(const GroupState &state, const char *op) {
  return state.site ? state.site : op;
}

/// Polls the messages posted for the current collective of `state` until
/// all are done, checking each peer's header as it arrives, before its
/// data is read (when traced, noting in state.headersCame when the last
/// came); gives up after the collective timeout, naming the processes that
/// sent nothing.
void finishMessages(GroupState &state, const char *op) {
  const char *site = state.site, *what = mpiWhere(state, op);
  bool awaitingHeaders =
      trace::on() &&
      std::any_of(state.peers.begin(), state.peers.end(),
                  [](const Peer &peer) { return !peer.headerMessage.done; });
  PollingFiber polling;
  // The clock from the 64th round on, and the timeout from then: most
  // collectives are done before, and a poll is much cheaper than a reading.
  using Clock = std::chrono::steady_clock;
  Clock::time_point start{}, now{}, deadline = Clock::time_point::max();
  // One turn at MPI per round of tests, none while pausing: other threads
  // (and sibling fibers) may need it.
  uint64_t number = state.own->header.number;
  auto poll = [&] {
    LazyMpiLock lock;
    bool pending = false, headersPending = false;
    for (Peer &peer : state.peers) {
      if (!peer.headerMessage.done) {
        Message &header = peer.headerMessage;
        bool came = peer.mailboxes
                        ? (header.done =
                               peer.mailboxes.received(number, header.arrived))
                        : testMessage(header, what, *lock);
        // The data is read only once the header says it is what this
        // process expects.
        if (!came) {
          pending = headersPending = true;
          continue;
        }
        checkHeader(peer, state, op, what, lock);
        if (peer.headerMessage.arrived != peer.headerBytes)
          failRun(describe(site, op) + ": process " +
                  std::to_string(peer.process) +
                  " sent a part of another size");
      }
      for (Message &m : peer.data)
        if (!testMessage(m, what, *lock))
          pending = true;
    }
    for (Message &m : state.sends)
      if (!testMessage(m, what, *lock))
        pending = true;
    if (awaitingHeaders && !headersPending) {
      state.headersCame = trace::Clock::now();
      awaitingHeaders = false;
    }
    return pending;
  };
  for (uint32_t round = 1; poll(); ++round) {
    if (round % 64 == 0) {
      now = Clock::now();
      if (round == 64) {
        start = now;
        deadline = start + collectiveTimeout();
      }
    }
    if (now >= deadline) {
      // Processes whose header never came did not reach the collective;
      // those whose data did not all come did, and may wait themselves.
      std::string silent, unfinished;
      for (const Peer &peer : state.peers) {
        bool dataCame = std::all_of(peer.data.begin(), peer.data.end(),
                                    [](const Message &m) { return m.done; });
        auto add = [&](std::string &list) {
          list += (list.empty() ? "" : ", ") + std::to_string(peer.process);
        };
        if (!peer.headerMessage.done)
          add(silent);
        else if (!dataCame)
          add(unfinished);
      }
      auto processes = [](const std::string &list) {
        return (list.find(',') == std::string::npos ? "process "
                                                    : "processes ") +
               list;
      };
      std::string missing =
          silent.empty() && unfinished.empty()
              ? std::string("its own messages were not taken")
              : (silent.empty() ? ""
                                : "nothing came from " + processes(silent)) +
                    (!silent.empty() && !unfinished.empty() ? "; " : "") +
                    (unfinished.empty()
                         ? ""
                         : processes(unfinished) + " reached it, but not all "
                                                   "of the data came");
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g",
                    std::chrono::duration<double>(collectiveTimeout()).count());
      failRun(describe(site, op) + ": process " +
              std::to_string(processLayout().rank) + " waited more than " +
              seconds +
              " s for the other processes of its group (at collective #" +
              std::to_string(state.own->header.number) + " of the group); " +
              missing +
              ". Processes must run the same collectives in the same order; "
              "PCC_COLLECTIVE_TIMEOUT sets the limit in seconds");
    }
    pause(now - start);
  }
  for (const Peer &peer : state.peers)
    for (const Message &m : peer.data)
      if (m.arrived != m.bytes)
        failRun(describe(site, op) + ": process " +
                std::to_string(peer.process) + " sent a part of another size");
}

/// The first member's part: sends this process's inputs to the other
/// processes of the group, receives theirs, and fills state.everyone. With
/// `split` (an all-reduce of kSplitBytes or more) each process receives
/// only its slice of the others' inputs (processSlice), and sends each the
/// slice it reduces. With `headersOnly`, only the headers travel: the
/// processes check that they run the same collective.
GroupState *exchange(GroupSlot &slot, const Collective &call,
                     const GroupPos &pos, const Announcement *local,
                     const Fingerprint &fingerprint, bool split,
                     bool headersOnly = false) {
  if (!slot.processState)
    slot.processState = stateOf(call, pos, slot);
  auto *state = static_cast<GroupState *>(slot.processState);
  const char *op = call.name();
  size_t inBytes = headersOnly ? 0 : call.inBytes();
  size_t elem = size_t(elemSize(call.dtype));
  size_t members = slot.groupRanks.size();
  for (size_t l = 0; l < members; ++l) {
    state->everyone[size_t(slot.groupRanks[l])].in = local[l].in;
    state->everyone[size_t(pos.size) + l].out = local[l].out;
  }
  // What this process receives of each input: a slice, or all of it.
  int64_t lo = 0, hi = call.count;
  if (split)
    processSlice(call, state->processes, state->position, lo, hi);
  size_t partBytes = size_t(hi - lo) * elem;
  // A process's inputs travel in its header's message when whole and
  // small, else after it.
  auto fits = [&](size_t count) {
    return !split && count * inBytes <= kInlineBytes;
  };
  size_t needed = 0;
  for (const Peer &peer : state->peers)
    if (!fits(peer.ranks.size()))
      needed += peer.ranks.size() * partBytes;
  if (needed > state->capacity) {
    std::free(state->received);
    state->capacity = (needed + 63) / 64 * 64;
    state->received =
        static_cast<char *>(std::aligned_alloc(64, state->capacity));
    if (!state->received)
      failRun(std::string(op) + ": out of memory for the inputs of other "
                                "processes");
  }

  Header &own = state->own->header;
  own.group = state->key;
  uint64_t number = ++own.number;
  own.fingerprint = fingerprint;
  own.device = slot.memberDevice(0);
  own.headersOnly = headersOnly;
  const char *site = currentCallSite().description;
  if (site != state->site) {
    own.site = siteHash(site);
    state->site = site;
  }
  const char *what = mpiWhere(*state, op);

  size_t offset = 0;
  bool sendInline = fits(members);
  size_t inlineBytes = sendInline ? members * inBytes : 0;
  int64_t sentBytes = int64_t(offsetof(HeaderMessage, inputs) + inlineBytes);
  // This process's inputs, after its header in a message.
  auto writeInputs = [&](char *inputs) {
    for (size_t l = 0; l < members && inlineBytes; ++l)
      std::memcpy(inputs + l * inBytes, local[l].in, inBytes);
  };
  if (state->someByMpi)
    writeInputs(state->own->inputs);
  {
    LazyMpiLock lock;
    for (Peer &peer : state->peers) {
      bool inline_ = fits(peer.ranks.size());
      peer.headerBytes = int64_t(offsetof(HeaderMessage, inputs) +
                                 (inline_ ? peer.ranks.size() * inBytes : 0));
      if (peer.mailboxes) {
        peer.first = reinterpret_cast<const HeaderMessage *>(
            peer.mailboxes.inbox(number));
        peer.headerMessage.done = false;
      } else {
        peer.first = peer.storage.get();
        postReceive(peer.headerMessage, peer.storage.get(),
                    sizeof(HeaderMessage), peer.process, peer.tag, what, *lock);
      }
      peer.data.clear();
      for (size_t k = 0; k < peer.ranks.size(); ++k) {
        Announcement &input = state->everyone[size_t(peer.ranks[k])];
        if (inline_) {
          input.in = peer.first->inputs + k * inBytes;
          continue;
        }
        char *part = state->received + offset;
        // Element i of the input is read at in + i, for i in [lo, hi).
        input.in = part - size_t(lo) * elem;
        postPieces(peer.data, part, partBytes,
                   [&](Message &m, char *at, int64_t n) {
                     postReceive(m, at, n, peer.process, peer.tag, what, *lock);
                   });
        offset += partBytes;
      }
    }
    state->sends.clear();
    for (const Peer &peer : state->peers) {
      if (peer.mailboxes) {
        char *box = peer.mailboxes.outbox(number, what);
        std::memcpy(box, &own, sizeof(Header));
        writeInputs(box + offsetof(HeaderMessage, inputs));
        peer.mailboxes.send(number, sentBytes);
      } else {
        state->sends.emplace_back();
        postSend(state->sends.back(), state->own.get(), sentBytes, peer.process,
                 peer.tag, what, *lock);
      }
      if (sendInline)
        continue;
      int64_t peerLo = 0, peerHi = call.count;
      if (split)
        processSlice(call, state->processes, peer.position, peerLo, peerHi);
      for (size_t l = 0; l < members; ++l)
        postPieces(state->sends,
                   static_cast<const char *>(local[l].in) +
                       size_t(peerLo) * elem,
                   size_t(peerHi - peerLo) * elem,
                   [&](Message &m, const char *at, int64_t n) {
                     postSend(m, at, n, peer.process, peer.tag, what, *lock);
                   });
    }
  }
  finishMessages(*state, op);
  return state;
}

/// The first member's part of a split all-reduce, once this process's
/// slice is reduced into its first member's output `out`: sends the slice
/// to the other processes and receives theirs into the same output.
void shareSlices(GroupState &state, const Collective &call, char *out) {
  const char *op = call.name();
  const char *what = mpiWhere(state, op);
  size_t elem = size_t(elemSize(call.dtype));
  int64_t lo, hi;
  processSlice(call, state.processes, state.position, lo, hi);
  {
    MpiLock lock;
    state.sends.clear();
    for (Peer &peer : state.peers) {
      int64_t peerLo, peerHi;
      processSlice(call, state.processes, peer.position, peerLo, peerHi);
      peer.data.clear();
      postPieces(peer.data, out + size_t(peerLo) * elem,
                 size_t(peerHi - peerLo) * elem,
                 [&](Message &m, char *at, int64_t n) {
                   postReceive(m, at, n, peer.process, peer.tag, what, lock);
                 });
      postPieces(state.sends, out + size_t(lo) * elem, size_t(hi - lo) * elem,
                 [&](Message &m, const char *at, int64_t n) {
                   postSend(m, at, n, peer.process, peer.tag, what, lock);
                 });
    }
  }
  finishMessages(state, op);
}

} // namespace

GroupSlot *slotHere(const Collective &call, const GroupPos &pos,
                    GroupPos &local) {
  int64_t devices = gridSize(call);
  // This process's members, in group-rank order.
  thread_local std::vector<int64_t> here;
  here.clear();
  int64_t rankHere = -1;
  for (int64_t rank = 0; rank < pos.size; ++rank) {
    int64_t device = memberDevice(call.gridRank, call.dims, call.mask,
                                  call.groups, pos.leader, rank);
    if (processOfDevice(device, devices) != processLayout().rank)
      continue;
    if (rank == pos.rank)
      rankHere = int64_t(here.size());
    here.push_back(rank);
  }
  if (int64_t(here.size()) == pos.size)
    return nullptr;
  local = {int64_t(here.size()), rankHere, pos.leader};
  return findSlot(call, local, &here);
}

namespace {

/// The steps that every collective between processes starts with: this
/// process's members (meeting in `slot`, from slotHere) announce their
/// buffers (none with `headersOnly`) and meet, the first of them swaps with
/// the other processes (exchange), and they meet again.
void startAcrossProcesses(const Collective &call, const GroupPos &pos,
                          GroupSlot *slot, const GroupPos &local, bool split,
                          bool headersOnly) {
  const char *op = call.name();
  Fingerprint fingerprint{fingerprintKind(call), call.dtype, call.count,
                          currentCallSite().shape};
  const Announcement *announced = publishAndMeet(
      *slot, op, call.device, local, headersOnly ? nullptr : call.in,
      headersOnly ? nullptr : call.out, fingerprint);
  if (local.rank == 0)
    exchange(*slot, call, pos, announced, fingerprint, split, headersOnly);
  meet(*slot, op, call.device, local);
}

} // namespace

void agreeAcrossProcesses(const Collective &call, const GroupPos &pos,
                          GroupSlot &here, const GroupPos &local) {
  startAcrossProcesses(call, pos, &here, local, /*split=*/false,
                       /*headersOnly=*/true);
}

bool runAcrossProcesses(const Collective &call, const GroupPos &pos,
                        trace::CollectiveSpans *spans) {
  bool split =
      call.kind == Collective::AllReduce && call.inBytes() >= kSplitBytes;
  GroupPos local;
  GroupSlot *slot = slotHere(call, pos, local);
  if (!slot)
    return false;
  trace::CollectiveSpans untraced;
  if (!spans)
    spans = &untraced;
  spans->enter(trace::Phase::Wait);
  startAcrossProcesses(call, pos, slot, local, split, /*headersOnly=*/false);
  const char *op = call.name();
  auto *state = static_cast<GroupState *>(slot->processState);
  // The first member here wrote the time before the members met again.
  if (spans->isTraced())
    spans->enter(trace::Phase::Transfer, state->headersCame);
  Announcement *everyone = state->everyone.get();
  if (!split) {
    computeOwnPart(call, everyone, pos, everyone + pos.size, *slot, local,
                   /*stage=*/false);
    // The inputs here and the copies received must stay until every member
    // here has read them.
    spans->enter(trace::Phase::Wait);
    meet(*slot, op, call.device, local);
    return true;
  }
  // This process's slice, reduced into every output here.
  int64_t lo, hi;
  processSlice(call, state->processes, state->position, lo, hi);
  reduceRange(call, everyone, pos, everyone + pos.size, *slot, local, lo, hi);
  meet(*slot, op, call.device, local);
  auto *first = static_cast<char *>(everyone[pos.size].out);
  if (local.rank == 0)
    shareSlices(*state, call, first);
  if (local.size == 1)
    return true;
  // The other processes' slices, from the first member's output into the
  // others', which must stay until they are copied.
  meet(*slot, op, call.device, local);
  if (local.rank != 0) {
    size_t elem = size_t(elemSize(call.dtype));
    auto *out = static_cast<char *>(call.out);
    std::memcpy(out, first, size_t(lo) * elem);
    std::memcpy(out + size_t(hi) * elem, first + size_t(hi) * elem,
                size_t(call.count - hi) * elem);
  }
  spans->enter(trace::Phase::Wait);
  meet(*slot, op, call.device, local);
  return true;
}

} // namespace pcc::runtime
