//===- DevicePool.cpp - Persistent device threads of the host runtime -----===//
//
// Implements pcc_run_devices: the calling thread runs the first devices and
// persistent worker threads run the others. With at most as many devices as
// host threads (by default, the cores the process may use), each device has
// a thread; with more, each thread runs a contiguous block of devices as
// fibers (Fibers.h), so that collectives among them switch without the
// kernel. A launch that the compiler found to do little (pcc_launch's
// work) runs on the calling thread alone, all its devices fibers. Workers
// are created on first use and grown when a call needs more, so that a
// program that runs many SPMD bodies pays for thread creation once. Each
// worker has its own wake-up word, so a call wakes exactly the threads it
// uses, and idle workers sleep on a condition variable. Running devices on
// the caller saves a wake-up per call and a thread that would only wait,
// which on a machine with as many cores as threads lets the workers spin
// between calls. Threads are pinned to
// distinct cores, as Open MPI binds its ranks: left free, the two spinning
// threads of a 2-device run shared one core of this project's 2-core VM in
// about half of the processes, where a small psum then took 6-8 µs instead
// of 0.5 µs (bench/placement.py). Threads are created with pthread_create
// (not std::thread, whose failure is an exception in a library built
// without them) and joined by an atexit handler so that the process ends
// cleanly.
//
//===----------------------------------------------------------------------===//

#include "pcc/Runtime/pcc_runtime.h"

#include "BlasChoice.h"
#include "Collectives.h"
#include "DevicePool.h"
#include "Fibers.h"
#include "Memory.h"
#include "Processes.h"
#include "RuntimeError.h"
#include "StackGuard.h"
#include "Sync.h"
#include "Trace.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace pcc::runtime {

std::atomic<int64_t> barrierSpinNanos{0};
std::atomic<bool> spinnersMayShareCores{true};

void yieldThread() { sched_yield(); }

namespace {

/// Barrier spin when every device has a core: covers the usual skew between
/// devices running the same code, and costs about one futex round trip when
/// a peer really is late (e.g. descheduled), after which we block.
constexpr int64_t kBarrierSpinNanos = 20000;
/// Idle workers and the caller of pcc_run_devices spin too, so that
/// back-to-back calls stay cheap, but only when every device has a core:
/// otherwise a finished device would steal time from those still running.
constexpr int64_t kIdleSpinNanos = 20000;
std::atomic<int64_t> idleSpinNanos{0};
constexpr int32_t kIdleYields = 8;
/// A launch runs on the calling thread alone, its devices as fibers, when
/// that is faster than threads: waking another thread, meeting it and
/// waiting for it cost transfers between cores, whose price depends on the
/// machine. On an Intel VM one thread was faster for a psum at N = 2 up to
/// 128 B per device and slower from 256 B; on an AMD EPYC VM one thread was
/// faster up to 32 KiB (a 512 B psum: 0.38 µs against 1.39 µs on two
/// threads), and even at 64 KiB. So each pmap (its body) whose devices
/// together cost at most kMaxSerialWork elements (the compiler's estimate,
/// counting kDeviceCost per device for its call and its switches) is timed
/// both ways over its first launches (SiteChoice), and its later launches
/// take the faster. PCC_SERIAL_WORK sets a fixed budget instead (launches
/// of at most that many elements run on one thread, the others on
/// threads), as does kSerialWork until a pmap has been timed.
constexpr int64_t kSerialWork = 512;
constexpr int64_t kMaxSerialWork = 1 << 18;
constexpr int64_t kDeviceCost = 64;

/// The timing of one pmap's launches both ways (see kSerialWork).
struct SiteChoice {
  /// Launches before the timed ones, which pay for first touches and run
  /// slower until caches and predictors have learnt the body (a 512 B
  /// all_to_all at N = 2 on one thread: 0.4-0.6 µs over the first 30
  /// launches, 0.33 µs after).
  static constexpr int32_t kWarmUp = 32;
  /// The timed launches come in blocks of kBlock launches one way, then
  /// kBlock the other, kBlocks times each way. The first launch of a block
  /// is not timed: it pays for the switch (waking the workers, moving the
  /// fibers' stacks between cores), which alternating launch by launch
  /// measured instead of either way (a grouped 512 B psum at N = 8: 4-5 µs
  /// both ways, against 1.6 µs on one thread and 2.2 µs on two after).
  /// Six blocks each way, after kWarmUp: with three after four, that
  /// all_to_all ran at 0.45-0.48 µs (threads) in 6 of 12 processes, with
  /// six after 32 in 4 of 12 (0.32 µs in the others; with one thread
  /// imposed, 2 of 8 processes ran slow too: the machine's noise).
  static constexpr int32_t kBlock = 4, kBlocks = 6;
  static constexpr int32_t kTimed = kBlocks * (kBlock - 1);
  /// Launches after the first decision before the pmap is timed once more:
  /// its first launches may each touch memory for the first time (a
  /// program's first steps, a benchmark's first pass over its copies),
  /// whose page faults outweigh either way's cost and make the first
  /// decision a coin toss (a 512 B all_to_all at N = 2 with 2000 copies
  /// of its buffers: 0.63-0.73 µs in 3 of 6 processes, against 0.28-0.36).
  static constexpr int32_t kRecheckAfter = 1000;
  const void *site = nullptr;
  int32_t launches = 0;
  std::array<int64_t, kTimed> serialNanos{}, threadNanos{};
  /// Whether its launches run on one thread; decided after the timed ones.
  bool serial = false;
  bool decided = false;
  /// Launches since the first decision, counted until the recheck.
  int32_t sinceDecided = 0;
  bool rechecked = false;
};

/// Ticket value that tells a worker to exit.
constexpr uint64_t kStopTicket = ~uint64_t(0);

struct alignas(64) Worker {
  pthread_t thread;
  /// Sequence number of the call this worker should run next; written by the
  /// caller after the job, so a worker that sees a new ticket sees the job.
  std::atomic<uint64_t> ticket{0};
  /// The job: body(args, d) for d in [first, first + count).
  void (*body)(void *, int64_t) = nullptr;
  void *args = nullptr;
  int64_t first = 0;
  int64_t count = 0;
  SpinWait wakeUp;
};

struct Pool {
  /// Serializes pcc_run_devices (and shutdown): a call owns all workers.
  std::mutex runMutex;
  /// Guarded by runMutex. Workers are never moved, so they may point to
  /// themselves.
  std::vector<Worker *> workers;
  std::atomic<int64_t> numAlive{0};
  uint64_t sequence = 0;
  alignas(64) std::atomic<int64_t> remaining{0};
  SpinWait allDone;
  int64_t numCores = 1;
  /// How many threads run devices, at most: PCC_HOST_THREADS or numCores,
  /// unless pcc_set_host_threads says otherwise.
  int64_t defaultHostThreads = 1;
  int64_t hostThreads = 1;
  /// PCC_SERIAL_WORK, or -1: launches whose devices together cost at most
  /// this many elements run on the calling thread.
  int64_t serialWork = -1;
  /// How the pmaps run when PCC_SERIAL_WORK is unset, and the last one
  /// looked up (most programs launch one pmap again and again).
  std::vector<SiteChoice> choices;
  size_t lastChoice = 0;
  /// The CPUs the process may run on, when known.
  cpu_set_t allowedCpus;
  bool hasAffinity = false;
  /// The allowed CPUs in turn from the one the first caller was on; empty
  /// when unknown or only one. The threads of a launch keep to shares of
  /// them (cpuShare): pinned (PCC_PIN_THREADS, on by default), one CPU each;
  /// unpinned, every T-th for T threads, within which the scheduler places
  /// them. Either way no two threads of a launch share a core while they do
  /// not outnumber the CPUs: unpinned threads left free to go anywhere
  /// (which the scheduler's wake-up affinity favours) were put on one core
  /// when several processes shared the machine, and then took turns there
  /// at every collective, each a switch of threads (6 processes of 8
  /// devices on 2 cores: 7x the time of the same runs one after another).
  std::vector<int> cpus;
  bool pin = true;
  /// How many shares the workers' CPUs are split in now (0: none yet).
  int64_t workerShares = 0;
  bool initialized = false;
};

/// Never destroyed: workers and late callers (other atexit handlers) may
/// still refer to it while static destructors run.
Pool &pool() {
  static Pool *p = new Pool;
  return *p;
}

/// True on device threads and on a caller while it runs device 0, to reject
/// nested pcc_run_devices calls (they would wait forever for the workers that
/// are running them).
thread_local bool isDeviceThread = false;

/// How many shares this caller thread's CPUs are split in (0: none yet).
thread_local int64_t callerShares = 0;

/// How many shares the CPUs are split in for a launch on `threads` threads:
/// one CPU each when pinned; otherwise one per thread, as long as there are
/// CPUs enough.
int64_t sharesFor(const Pool &p, int64_t threads) {
  int64_t size = int64_t(p.cpus.size());
  return p.pin ? size : std::min(threads, size);
}

/// The CPUs of thread `t` (0: the caller) when they are split in `shares`:
/// cpus[i] for every i = t modulo `shares`.
cpu_set_t cpuShare(const Pool &p, int64_t t, int64_t shares) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (size_t i = size_t(t % shares); i < p.cpus.size(); i += size_t(shares))
    CPU_SET(p.cpus[i], &set);
  return set;
}

/// Runs devices [first, first + count) on this thread, as fibers if more
/// than one or if `asFibers`.
void runBlock(int64_t first, int64_t count, void (*body)(void *, int64_t),
              void *args, bool asFibers = false) {
  if (count == 1 && !asFibers) {
    enterDeviceStack(first);
    body(args, first);
    leaveDeviceStack();
  } else
    runDevicesAsFibers(first, count, body, args);
}

void *workerMain(void *arg) {
  Worker *w = static_cast<Worker *>(arg);
  isDeviceThread = true;
  Pool &p = pool();
  uint64_t seen = 0;
  for (;;) {
    w->wakeUp.wait(
        [&] { return w->ticket.load(std::memory_order_seq_cst) != seen; },
        idleSpinNanos.load(std::memory_order_relaxed), kIdleYields);
    seen = w->ticket.load(std::memory_order_acquire);
    if (seen == kStopTicket)
      break;
    runBlock(w->first, w->count, w->body, w->args);
    if (p.remaining.fetch_sub(1, std::memory_order_seq_cst) == 1)
      p.allDone.wake();
  }
  return nullptr;
}

/// Stops and joins every worker. Runs at exit; skipped when the process exits
/// from a device thread or while a call is running, where joining would wait
/// for this very thread or for bodies that may never finish.
void shutdownPool() {
  Pool &p = pool();
  if (isDeviceThread || !p.runMutex.try_lock())
    return;
  for (Worker *w : p.workers) {
    w->ticket.store(kStopTicket, std::memory_order_seq_cst);
    w->wakeUp.wake();
  }
  for (Worker *w : p.workers) {
    pthread_join(w->thread, nullptr);
    delete w;
  }
  p.workers.clear();
  p.numAlive.store(0, std::memory_order_relaxed);
  p.runMutex.unlock();
}

/// Stores `value` into `setting` unless it is there already: the device
/// threads read these settings on every call, and a store, even of the same
/// value, would take the line from their caches.
template <typename T> void setIfChanged(std::atomic<T> &setting, T value) {
  if (setting.load(std::memory_order_relaxed) != value)
    setting.store(value, std::memory_order_relaxed);
}

/// Reads the environment variable `name`, if set, into `value`: a whole
/// number of at least `least`. Returns false after printing an error saying
/// it must be `what`.
bool readCount(const char *name, long long least, const char *what,
               int64_t &value) {
  const char *text = std::getenv(name);
  if (!text)
    return true;
  char *end = nullptr;
  errno = 0;
  long long number = std::strtoll(text, &end, 10);
  // Digits only: strtoll would also take leading blanks and a sign.
  if (!(*text >= '0' && *text <= '9') || *end || errno || number < least) {
    reportError(std::string(name) + " must be " + what + ", not '" + text +
                "'");
    return false;
  }
  value = number;
  return true;
}

/// Reads the machine and the environment on first use. Returns false after
/// printing an error.
bool initialize(Pool &p) {
  if (p.initialized)
    return true;
  p.hasAffinity =
      sched_getaffinity(0, sizeof(p.allowedCpus), &p.allowedCpus) == 0;
  p.numCores = p.hasAffinity ? std::max(1, CPU_COUNT(&p.allowedCpus)) : 1;
  p.defaultHostThreads = p.numCores;
  if (!readCount("PCC_HOST_THREADS", 1,
                 "a positive integer (how many "
                 "threads run devices)",
                 p.defaultHostThreads) ||
      !readCount("PCC_SERIAL_WORK", 0,
                 "a number of elements (launches that "
                 "cost no more run on one thread; 0: never)",
                 p.serialWork))
    return false;
  // Checked before any device runs, so that a typo is not a silent
  // five-minute timeout.
  if (!checkCollectiveTimeout() || !checkBlasChoice())
    return false;
  keepFreedMemory();
  // The processes of an MPI job share the machine's cores, and each would
  // pin its threads to the same ones: unless mpirun bound each to cores of
  // its own (then it may use only those, and there is nothing to choose),
  // they are left to the scheduler.
  bool pin = !multiProcess();
  if (const char *text = std::getenv("PCC_PIN_THREADS")) {
    if (std::strcmp(text, "0") && std::strcmp(text, "1")) {
      reportError(std::string("PCC_PIN_THREADS must be 1 (pin the threads "
                              "that run devices to cores) or 0, not '") +
                  text + "'");
      return false;
    }
    pin = *text == '1';
  }
  p.pin = pin;
  if (p.hasAffinity && p.numCores > 1) {
    int here = std::max(0, sched_getcpu());
    for (int k = 0; k < CPU_SETSIZE; ++k)
      if (CPU_ISSET((here + k) % CPU_SETSIZE, &p.allowedCpus))
        p.cpus.push_back((here + k) % CPU_SETSIZE);
  }
  p.hostThreads = p.defaultHostThreads;
  if (std::atexit(shutdownPool) != 0) {
    reportError("cannot register atexit");
    return false;
  }
  p.initialized = true;
  return true;
}

/// Grows the pool to `n` workers. Returns false after printing an error.
bool ensureWorkers(Pool &p, int64_t n) {
  if (int64_t(p.workers.size()) >= n)
    return true;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  size_t stackSize = 0;
  pthread_attr_getstacksize(&attr, &stackSize);
  if (stackSize < kDeviceStackSize)
    pthread_attr_setstacksize(&attr, kDeviceStackSize);
  // Started in its share (see launchOn), not on its creator's core, where
  // it could stay, busy waiting with it, until the scheduler moved it.
  int64_t shares = sharesFor(p, n + 1);
  bool ok = true;
  while (int64_t(p.workers.size()) < n) {
    if (shares > 0) {
      cpu_set_t share = cpuShare(p, int64_t(p.workers.size()) + 1, shares);
      pthread_attr_setaffinity_np(&attr, sizeof(share), &share);
    }
    Worker *w = new (std::nothrow) Worker;
    if (!w) {
      reportError("out of memory");
      ok = false;
      break;
    }
    int err = pthread_create(&w->thread, &attr, workerMain, w);
    if (err != 0) {
      reportError("cannot create device thread " +
                  std::to_string(p.workers.size() + 1) + " of " +
                  std::to_string(n + 1) + ": " + std::strerror(err));
      delete w;
      ok = false;
      break;
    }
    p.workers.push_back(w);
    p.numAlive.fetch_add(1, std::memory_order_relaxed);
  }
  pthread_attr_destroy(&attr);
  return ok;
}

/// Runs devices [0, num_devices) on `threads` threads, the caller's among
/// them (workers exist, fiber stacks are reserved where needed).
void launchOn(Pool &p, int64_t threads, int64_t num_devices,
              void (*body)(void *args, int64_t device), void *args,
              bool callerAsFibers) {
  int64_t shares = sharesFor(p, threads);
  if (threads > 1 && shares > 0) {
    if (callerShares != shares) {
      cpu_set_t share = cpuShare(p, 0, shares);
      sched_setaffinity(0, sizeof(share), &share);
      callerShares = shares;
    }
    if (p.workerShares != shares) {
      for (size_t w = 0; w < p.workers.size(); ++w) {
        cpu_set_t share = cpuShare(p, int64_t(w) + 1, shares);
        pthread_setaffinity_np(p.workers[w]->thread, sizeof(share), &share);
      }
      p.workerShares = shares;
    }
  }
  bool coreEach = threads <= p.numCores;
  setIfChanged(barrierSpinNanos, coreEach ? kBarrierSpinNanos : 0);
  // Unless each thread has a core of its own, a spinner yields now and
  // then, in case the thread it waits for shares its core.
  setIfChanged(spinnersMayShareCores, shares == 0 || threads > shares);
  setIfChanged(idleSpinNanos, coreEach ? kIdleSpinNanos : 0);
  p.remaining.store(threads - 1, std::memory_order_relaxed);
  uint64_t seq = ++p.sequence;
  // Thread t runs devices [t * N / T, (t + 1) * N / T): blocks of contiguous
  // devices, so that groups over the innermost axis share threads.
  auto blockStart = [&](int64_t t) { return t * num_devices / threads; };
  for (int64_t t = 1; t < threads; ++t) {
    Worker *w = p.workers[t - 1];
    w->body = body;
    w->args = args;
    w->first = blockStart(t);
    w->count = blockStart(t + 1) - w->first;
    w->ticket.store(seq, std::memory_order_seq_cst);
    w->wakeUp.wake();
  }
  isDeviceThread = true;
  runBlock(0, blockStart(1), body, args, callerAsFibers);
  isDeviceThread = false;
  p.allDone.wait(
      [&] { return p.remaining.load(std::memory_order_seq_cst) == 0; },
      idleSpinNanos.load(std::memory_order_relaxed), kIdleYields);
}

/// The timing of the pmap whose body is `site`.
SiteChoice &choiceFor(Pool &p, const void *site) {
  if (p.lastChoice < p.choices.size() && p.choices[p.lastChoice].site == site)
    return p.choices[p.lastChoice];
  for (p.lastChoice = 0; p.lastChoice < p.choices.size(); ++p.lastChoice)
    if (p.choices[p.lastChoice].site == site)
      return p.choices[p.lastChoice];
  p.choices.emplace_back().site = site;
  return p.choices.back();
}

int64_t medianOf(std::array<int64_t, SiteChoice::kTimed> nanos) {
  std::nth_element(nanos.begin(), nanos.begin() + nanos.size() / 2,
                   nanos.end());
  return nanos[nanos.size() / 2];
}

} // namespace

int32_t runDevices(int64_t num_devices,
                   void (*body)(void *args, int64_t device), void *args,
                   bool threadPerDevice, int64_t work, const void *site) {
  if (num_devices < 0 || (!body && num_devices > 0)) {
    reportError("pcc_run_devices: invalid arguments (num_devices = " +
                std::to_string(num_devices) + ")");
    return 1;
  }
  if (isDeviceThread) {
    reportError("pcc_run_devices called from a device thread (nested "
                "device runs)");
    return 1;
  }
  if (num_devices == 0)
    return 0;
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.runMutex);
  if (!initialize(p))
    return 1;
  // The caller's own stack may be smaller than a device's and not grow
  // (the main thread's does: ensureThreadStack): then its devices run on
  // fiber stacks too.
  bool callerStackFits = ensureThreadStack(kDeviceStackSize);
  bool callerAsFibers =
      !callerStackFits && !threadPerDevice && fibersSupported();
  int64_t threads = num_devices;
  SiteChoice *timing = nullptr;
  if (!threadPerDevice && fibersSupported()) {
    threads = std::min(num_devices, p.hostThreads);
    auto within = [&](int64_t budget) {
      return work >= 0 && work <= budget / num_devices - kDeviceCost;
    };
    if (p.serialWork >= 0) {
      if (within(p.serialWork))
        threads = 1;
    } else if (threads > 1 && within(kMaxSerialWork)) {
      SiteChoice &choice = choiceFor(p, site);
      if (choice.decided && !choice.rechecked &&
          ++choice.sinceDecided == SiteChoice::kRecheckAfter) {
        // Timed again, without the warm-up.
        choice.decided = false;
        choice.rechecked = true;
      }
      if (choice.decided) {
        if (choice.serial)
          threads = 1;
      } else if (choice.launches < SiteChoice::kWarmUp) {
        ++choice.launches;
        if (within(kSerialWork))
          threads = 1;
      } else {
        timing = &choice;
        if ((choice.launches - SiteChoice::kWarmUp) / SiteChoice::kBlock % 2 ==
            0)
          threads = 1;
      }
    }
  }
  if ((threads < num_devices || callerAsFibers) &&
      !reserveFiberStacks(num_devices))
    return 1;
  if (!ensureWorkers(p, threads - 1))
    return 1;
  if (!timing) {
    launchOn(p, threads, num_devices, body, args, callerAsFibers);
    return 0;
  }
  auto start = std::chrono::steady_clock::now();
  launchOn(p, threads, num_devices, body, args, callerAsFibers);
  int64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  int32_t turn = timing->launches++ - SiteChoice::kWarmUp;
  int32_t block = turn / SiteChoice::kBlock, at = turn % SiteChoice::kBlock;
  if (at > 0)
    (threads == 1 ? timing->serialNanos : timing->threadNanos)[size_t(
        block / 2 * (SiteChoice::kBlock - 1) + at - 1)] = nanos;
  if (turn + 1 == 2 * SiteChoice::kBlocks * SiteChoice::kBlock) {
    timing->serial =
        medianOf(timing->serialNanos) <= medianOf(timing->threadNanos);
    timing->decided = true;
    timing->launches = SiteChoice::kWarmUp;
  }
  return 0;
}

} // namespace pcc::runtime

using namespace pcc::runtime;

extern "C" int32_t pcc_run_devices(int64_t num_devices,
                                   void (*body)(void *args, int64_t device),
                                   void *args) {
  return runDevices(num_devices, body, args, /*threadPerDevice=*/false,
                    /*work=*/-1);
}

extern "C" int32_t pcc_set_host_threads(int64_t threads) {
  if (threads < 0) {
    reportError("pcc_set_host_threads: " + std::to_string(threads) +
                " threads");
    return 1;
  }
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.runMutex);
  if (!initialize(p))
    return 1;
  p.hostThreads = threads ? threads : p.defaultHostThreads;
  return 0;
}

extern "C" int64_t pcc_runtime_num_threads(void) {
  return pool().numAlive.load(std::memory_order_relaxed);
}

namespace {
/// A body whose runs are traced (Trace.h).
struct TracedBody {
  void (*body)(void *args, int64_t device);
  void *args;

  static void run(void *traced, int64_t device) {
    auto *self = static_cast<TracedBody *>(traced);
    trace::runTraced(self->body, self->args, device);
  }
};

/// A body run on this process's block of devices (Processes.h): device d
/// of the pool is device first + d of the pmap.
struct BlockOfDevices {
  void (*body)(void *args, int64_t device);
  void *args;
  int64_t first;

  static void run(void *block, int64_t device) {
    auto *self = static_cast<BlockOfDevices *>(block);
    self->body(self->args, self->first + device);
  }
};
} // namespace

extern "C" void pcc_launch(int64_t num_devices,
                           void (*body)(void *args, int64_t device), void *args,
                           int64_t work) {
  // The pmap, for the choice between one thread and several.
  const void *site = reinterpret_cast<const void *>(body);
  TracedBody traced{body, args};
  int32_t failed = !trace::initialize();
  if (trace::on()) {
    body = TracedBody::run;
    args = &traced;
  }
  if (failed) {
    // The trace file could not be opened: said above.
  } else if (multiProcess() && num_devices >= 0) {
    BlockOfDevices block{body, args, 0};
    int64_t count;
    localDevices(num_devices, block.first, count);
    numberDevicesFrom(block.first);
    failed = runDevices(count, BlockOfDevices::run, &block,
                        /*threadPerDevice=*/false, work, site);
  } else {
    failed = runDevices(num_devices, body, args, /*threadPerDevice=*/false,
                        work, site);
  }
  // Generated code cannot handle a failure, and its results would be
  // garbage: end the process with status 1, as the driver ends on any other
  // error, but without the exit handlers, which would wait for the other
  // processes of an MPI job.
  if (failed) {
    std::fflush(nullptr);
    std::_Exit(1);
  }
}
