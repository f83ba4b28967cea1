//===- Processes.h - Devices split over the processes of an MPI job -*- C++
//-*-===//
//
// Under an MPI launcher (`mpirun -np P`), the P processes run one program
// together: the devices of each pmap are split into P contiguous blocks of
// linear indices, process p running block p. This layer finds the job
// (Open MPI's environment; nothing to configure), loads MPI through
// libpcc_mpi.so (MpiShim.c) only then, and offers what the rest of the
// runtime needs of it: the block of devices to run, messages between
// processes (MPI's, made by one thread at a time, and mailboxes in memory
// that the processes of a machine share), and one error report per
// machine. Without a launcher there is one process and MPI is never
// loaded.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_PROCESSES_H
#define PCC_LIB_RUNTIME_PROCESSES_H

#include <chrono>
#include <cstdint>
#include <string>

namespace pcc::runtime {

/// This process's place in the job.
struct ProcessLayout {
  int64_t rank = 0;
  int64_t count = 1;
  /// Tags of point-to-point messages are in [0, tagLimit].
  int64_t tagLimit = 0;
  /// This process's place among the job's processes on its machine.
  int64_t localRank = 0;
  /// The job's processes on this machine.
  int64_t localCount = 1;
};

/// The job as pcc_processes_init found it (one process until then).
const ProcessLayout &processLayout();

/// Whether this run has more than one process.
inline bool multiProcess() { return processLayout().count > 1; }

/// The process that runs linear device `device` of a pmap of `devices`.
inline int64_t processOfDevice(int64_t device, int64_t devices) {
  return device / (devices / processLayout().count);
}

/// The devices of a pmap of `devices` that this process runs: [first,
/// first + count). Ends the run with an error naming the fix when `devices`
/// does not split evenly over the processes.
void localDevices(int64_t devices, int64_t &first, int64_t &count);

/// An outstanding message (pcc_mpi_send or pcc_mpi_receive).
struct Message {
  /// The MPI_Request (MpiShim.c checks that it fits).
  alignas(8) char request[16];
  int64_t bytes = 0;   ///< What was posted.
  int64_t arrived = 0; ///< What arrived, once done.
  bool done = false;
};
constexpr int64_t kMaxMessageBytes = int64_t(1) << 30;

/// MPI for the calling thread: it runs with MPI_THREAD_SERIALIZED, so that
/// device threads take turns. The calls below take one as proof.
class MpiLock {
public:
  MpiLock();
  ~MpiLock();
  MpiLock(const MpiLock &) = delete;
  MpiLock &operator=(const MpiLock &) = delete;
};

/// Posts a message of at most kMaxMessageBytes to or from process `peer`.
/// Failures end the run naming `where` (a collective's site or name).
void postSend(Message &message, const void *data, int64_t bytes, int64_t peer,
              int64_t tag, const char *where, const MpiLock &);
void postReceive(Message &message, void *data, int64_t bytes, int64_t peer,
                 int64_t tag, const char *where, const MpiLock &);

/// Advances `message`; returns whether it is done.
bool testMessage(Message &message, const char *where, const MpiLock &);

/// The largest message a mailbox carries.
constexpr int64_t kMailboxBytes = 64 + (16 << 10);
/// The most pairs of mailboxes that two processes have (groups beyond
/// them use MPI).
constexpr int64_t kMailboxesPerPair = 8;

/// One group's mailboxes with another process of the same machine, in
/// memory the two share: a message per collective each way, written and
/// read without MPI (a small collective's whole cost between processes
/// was MPI's matching and queueing). Each way has two boxes, taken in turn
/// by odd and even collectives, so that a process writes its next message
/// while the other may still read its last. A process sends message n
/// only once it has read message n - 1: so message n + 1 frees box n mod 2.
class Mailboxes {
public:
  explicit operator bool() const { return out != nullptr; }
  /// Which of the two processes' pairs of mailboxes, from 0 to
  /// kMailboxesPerPair - 1: distinct for the groups that use mailboxes
  /// between them.
  int64_t index() const { return lane; }
  /// Where to write message `number` (1, 2, ... : one per collective).
  char *outbox(uint64_t number, const char *where) const;
  /// Sends message `number`, `bytes` of them written at outbox(number).
  void send(uint64_t number, int64_t bytes) const;
  /// Where the other process's message `number` is, once it has come.
  const char *inbox(uint64_t number) const;
  /// Whether the other process's message `number` has come, and its size.
  bool received(uint64_t number, int64_t &bytes) const;

  struct Way;

private:
  friend Mailboxes mailboxesWith(int64_t peer, uint64_t key);
  Way *out = nullptr, *in = nullptr;
  int64_t lane = -1;
};

/// The mailboxes of the group named `key` (nonzero, the same in both
/// processes) with process `peer`. Empty, so that MPI carries the group's
/// messages, when `peer` runs on another machine, when the mailboxes
/// between the two processes are all taken by other groups, or with
/// PCC_SHARED_MEMORY=0 (what runs between machines, on one).
Mailboxes mailboxesWith(int64_t peer, uint64_t key);

/// Whether this process is the first of its machine's to report an error
/// (always where they share no memory): processes that fail together, each
/// at the same check or each at another's absence, print one message.
bool firstToReport();

/// Shares the bytes [offsets[p], offsets[p + 1]) at `data`, written by
/// process p, with every process.
void allGatherBlocks(void *data, const int64_t *offsets);

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_PROCESSES_H
