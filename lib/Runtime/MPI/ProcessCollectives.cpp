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
// timeout ends the run with an error naming it.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "Fibers.h"
#include "Processes.h"
#include "RuntimeError.h"
#include "Sync.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace pcc::runtime {
namespace {

/// What a process sends each other process of a group first, for each
/// collective: what it runs, so that the receiver checks it before it
/// reads the data, which follows in the same message when it is small.
struct Header {
  uint64_t group = 0;  ///< GroupState::key of the sender's group.
  uint64_t number = 0; ///< The collective's number in the group, from 1.
  Fingerprint fingerprint;
  int64_t device = 0; ///< The sender's first member.
  char site[232] = "";
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

/// Another process that has members of the group.
struct Peer {
  int64_t process;
  /// Its members' group ranks, in order.
  std::vector<int64_t> ranks;
  /// What it sends first.
  std::unique_ptr<HeaderMessage> first{new HeaderMessage};
  Message headerMessage;
  /// Its inputs when they do not fit `first`.
  std::vector<Message> data;
};

/// The exchange state of a group that spans processes (GroupSlot::
/// processState), used by this process's first member only.
struct GroupState {
  uint64_t key = 0;
  int64_t tag = 0;
  std::vector<Peer> peers;
  /// What this process sends first.
  std::unique_ptr<HeaderMessage> own{new HeaderMessage};
  /// The call site in own's header.
  const char *site = nullptr;
  std::vector<Message> sends;
  /// The group's inputs in group-rank order, then this process's members'
  /// outputs (computeOwnPart's `members` and `outputs`).
  std::unique_ptr<Announcement[]> everyone;
  /// The other processes' inputs when they do not travel with their
  /// headers (64-byte aligned, never freed: the state lives as long as its
  /// slot).
  char *received = nullptr;
  size_t capacity = 0;
};

int64_t gridSize(const Collective &call) {
  int64_t devices = 1;
  for (int64_t k = 0; k < call.gridRank; ++k)
    devices *= call.dims[k];
  return devices;
}

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
                        const GroupSlot &slot) {
  auto *state = new GroupState;
  state->key = groupKey(call, pos.leader);
  state->tag = int64_t(state->key % uint64_t(processLayout().tagLimit + 1));
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
  state->everyone.reset(
      new Announcement[size_t(pos.size) + slot.groupRanks.size()]);
  return state;
}

/// "`site`", or "<op> (no source location)".
std::string describe(const char *site, const char *op) {
  return site && *site ? std::string("`") + site + "`"
                       : std::string(op) + " (no source location)";
}

/// Checks what `peer` says it runs against what this process runs.
void checkHeader(const Peer &peer, const GroupState &state, const char *op) {
  const Header &own = state.own->header, &other = peer.first->header;
  if (other.group != own.group)
    failRun("internal error: two groups of devices share an MPI tag (" +
            std::to_string(state.tag) + "); please report it");
  if (other.number == own.number && other.fingerprint == own.fingerprint &&
      std::strncmp(other.site, own.site, sizeof(own.site)) == 0)
    return;
  static const char *const kKinds[] = {"pcc_all_reduce", "pcc_all_gather",
                                       "pcc_reduce_scatter", "pcc_all_to_all",
                                       "pcc_permute"};
  int32_t kind = other.fingerprint.kind / 4;
  failRun("devices of a group met in different collectives: device " +
          std::to_string(own.device) + " (process " +
          std::to_string(processLayout().rank) + ") runs " +
          describe(own.site, op) + " and device " +
          std::to_string(other.device) + " (process " +
          std::to_string(peer.process) + ") runs " +
          describe(other.site, kind >= 0 && kind < 5 ? kKinds[kind]
                                                     : "another collective") +
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

/// The first member's part: sends this process's inputs to the other
/// processes of the group, receives theirs, and fills state.everyone.
GroupState *exchange(GroupSlot &slot, const Collective &call,
                     const GroupPos &pos, const Announcement *local,
                     const Fingerprint &fingerprint) {
  if (!slot.processState)
    slot.processState = createState(call, pos, slot);
  auto *state = static_cast<GroupState *>(slot.processState);
  const char *op = call.name();
  size_t inBytes = call.inBytes();
  size_t members = slot.groupRanks.size();
  for (size_t l = 0; l < members; ++l) {
    state->everyone[size_t(slot.groupRanks[l])].in = local[l].in;
    state->everyone[size_t(pos.size) + l].out = local[l].out;
  }
  // A process's inputs travel in its header's message when they fit, else
  // after it.
  auto fits = [&](size_t count) { return count * inBytes <= kInlineBytes; };
  size_t needed = 0;
  for (const Peer &peer : state->peers)
    if (!fits(peer.ranks.size()))
      needed += peer.ranks.size() * inBytes;
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
  ++own.number;
  own.fingerprint = fingerprint;
  own.device = slot.memberDevice(0);
  const char *site = currentCallSite().description;
  if (site != state->site) {
    std::snprintf(own.site, sizeof(own.site), "%s", site ? site : "");
    state->site = site;
  }
  // For MPI's errors.
  const char *what = site ? site : op;

  int64_t tag = state->tag;
  size_t offset = 0;
  bool sendInline = fits(members);
  if (sendInline)
    for (size_t l = 0; l < members; ++l)
      std::memcpy(state->own->inputs + l * inBytes, local[l].in, inBytes);
  {
    MpiLock lock;
    for (Peer &peer : state->peers) {
      postReceive(peer.headerMessage, peer.first.get(), sizeof(HeaderMessage),
                  peer.process, tag, what, lock);
      peer.data.clear();
      for (size_t k = 0; k < peer.ranks.size(); ++k) {
        if (fits(peer.ranks.size())) {
          state->everyone[size_t(peer.ranks[k])].in =
              peer.first->inputs + k * inBytes;
          continue;
        }
        char *in = state->received + offset;
        state->everyone[size_t(peer.ranks[k])].in = in;
        postPieces(peer.data, in, inBytes,
                   [&](Message &m, char *at, int64_t n) {
                     postReceive(m, at, n, peer.process, tag, what, lock);
                   });
        offset += inBytes;
      }
    }
    state->sends.clear();
    for (const Peer &peer : state->peers) {
      state->sends.emplace_back();
      postSend(state->sends.back(), state->own.get(),
               int64_t(offsetof(HeaderMessage, inputs) +
                       (sendInline ? members * inBytes : 0)),
               peer.process, tag, what, lock);
      if (sendInline)
        continue;
      for (size_t l = 0; l < members; ++l)
        postPieces(state->sends, static_cast<const char *>(local[l].in),
                   inBytes, [&](Message &m, const char *at, int64_t n) {
                     postSend(m, at, n, peer.process, tag, what, lock);
                   });
    }
  }

  PollingFiber polling;
  auto start = std::chrono::steady_clock::now(), now = start;
  auto deadline = start + collectiveTimeout();
  // One turn at MPI per round of tests, none while pausing: other threads
  // (and sibling fibers) may need it.
  auto poll = [&] {
    MpiLock lock;
    bool pending = false;
    for (Peer &peer : state->peers) {
      if (!peer.headerMessage.done) {
        // The data is read only once the header says it is what this
        // process expects.
        if (!testMessage(peer.headerMessage, what, lock)) {
          pending = true;
          continue;
        }
        checkHeader(peer, *state, op);
      }
      for (Message &m : peer.data)
        if (!testMessage(m, what, lock))
          pending = true;
    }
    for (Message &m : state->sends)
      if (!testMessage(m, what, lock))
        pending = true;
    return pending;
  };
  for (uint32_t round = 1; poll(); ++round) {
    // The clock now and then: a poll is much cheaper than a reading.
    if (round % 64 == 0)
      now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      std::string missing;
      for (const Peer &peer : state->peers) {
        bool arrived = peer.headerMessage.done;
        for (const Message &m : peer.data)
          arrived = arrived && m.done;
        if (!arrived)
          missing +=
              (missing.empty() ? "" : ", ") + std::to_string(peer.process);
      }
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g",
                    std::chrono::duration<double>(collectiveTimeout()).count());
      failRun(describe(site, op) + ": process " +
              std::to_string(processLayout().rank) + " waited more than " +
              seconds +
              " s for the other processes of its group (at collective #" +
              std::to_string(own.number) + " of the group); " +
              (missing.empty() ? std::string("its own messages were not taken")
                               : "nothing came from process " + missing) +
              ". Processes must run the same collectives in the same order; "
              "PCC_COLLECTIVE_TIMEOUT sets the limit in seconds");
    }
    pause(now - start);
  }
  for (const Peer &peer : state->peers) {
    bool whole =
        peer.headerMessage.arrived ==
        int64_t(offsetof(HeaderMessage, inputs) +
                (fits(peer.ranks.size()) ? peer.ranks.size() * inBytes : 0));
    for (const Message &m : peer.data)
      whole = whole && m.arrived == m.bytes;
    if (!whole)
      failRun(describe(site, op) + ": process " + std::to_string(peer.process) +
              " sent a part of another size");
  }
  return state;
}

} // namespace

bool runAcrossProcesses(const Collective &call, const GroupPos &pos) {
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
    return false;
  const char *op = call.name();
  GroupPos local{int64_t(here.size()), rankHere, pos.leader};
  GroupSlot *slot = findSlot(call, local, &here);
  Fingerprint fingerprint{fingerprintKind(call), call.dtype, call.count,
                          currentCallSite().shape};
  const Announcement *announced = publishAndMeet(
      *slot, op, call.device, local, call.in, call.out, fingerprint);
  if (local.rank == 0)
    exchange(*slot, call, pos, announced, fingerprint);
  meet(*slot, op, call.device, local);
  auto *state = static_cast<GroupState *>(slot->processState);
  computeOwnPart(call, state->everyone.get(), pos,
                 state->everyone.get() + pos.size, local, /*stage=*/false);
  // The inputs here and the copies received must stay until every member
  // here has read them.
  meet(*slot, op, call.device, local);
  return true;
}

} // namespace pcc::runtime
