//===- Sync.h - Spin-then-block waiting for the pcc runtime ----*- C++ -*-===//
//
// Synchronization primitives shared by the device pool and the collectives.
// A device waiting for its peers first spins (the common case when every
// device has a core: a wake-up costs tens of nanoseconds instead of the
// microseconds of a futex round trip), then yields (so that, when devices
// outnumber cores, the peers it waits for get the core), and finally blocks
// on a condition variable so that idle or long-waiting threads cost nothing.
// A device that runs as a fiber (Fibers.h) lets the other devices of its
// thread run instead of spinning.
// Only C++17 facilities are used: std::atomic and std::condition_variable
// stand in for C++20's atomic wait.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_SYNC_H
#define PCC_LIB_RUNTIME_SYNC_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "Fibers.h"

namespace pcc::runtime {

/// Pause instruction for spin loops: lets the sibling hyperthread run and
/// saves power without giving up the core.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

/// Yields the core to another runnable thread.
void yieldThread();

/// How long (ns) a collective barrier spins before yielding. Set by
/// pcc_run_devices: a few microseconds when every device has a core of its
/// own, zero when devices outnumber cores (spinning would then only delay the
/// peers it waits for).
extern std::atomic<int64_t> barrierSpinNanos;

/// Whether spinners yield now and then: only when the threads that run
/// devices are not pinned to cores of their own (set by pcc_run_devices).
extern std::atomic<bool> spinnersMayShareCores;

/// A place to wait until a condition, published by another thread with a
/// seq_cst store, becomes true. Waiters spin, yield, then sleep; a publisher
/// calls wake() after its store, which costs one load when nobody sleeps.
class SpinWait {
public:
  using Clock = std::chrono::steady_clock;

  /// Waits until `done()` returns true: spins for about `spinNanos`, then
  /// yields the core up to `yields` times, then sleeps. `done` must read the
  /// condition with seq_cst loads: together with the seq_cst increment of
  /// `sleepers` and the publisher's seq_cst store and load, that guarantees
  /// that either this thread sees the condition or the publisher sees it
  /// asleep (no lost wake-up). Returns true if the condition came true
  /// without sleeping. Gives up after `timeout`, once asleep, and returns
  /// false then too: callers that pass one check the condition again.
  ///
  /// A fiber with siblings lets them run for the spin instead, since the
  /// devices it waits for may be among them; when all wait (for another
  /// thread), it sleeps on its condition in naps of kFiberNap, since a
  /// sibling's condition may come true first; not while a sibling polls
  /// (PollingFiber), which only the thread's time advances.
  template <typename Pred>
  bool wait(Pred done, int64_t spinNanos, int32_t yields,
            Clock::duration timeout = Clock::duration::max()) {
    if (done())
      return true;
    // Most waits end before they need the clock: the deadline is computed
    // at the first reading.
    Clock::time_point deadline = Clock::time_point::min();
    while (hasSiblingDevices()) {
      // One round of the siblings often suffices.
      if (yieldToSiblingDevice() && done())
        return true;
      auto now = Clock::now();
      if (deadline == Clock::time_point::min())
        deadline = after(now, timeout);
      auto spinEnd = now + std::chrono::nanoseconds(spinNanos);
      do {
        if (!yieldToSiblingDevice())
          cpuRelax();
        if (done())
          return true;
      } while (Clock::now() < spinEnd);
      now = Clock::now();
      if (now >= deadline)
        return false;
      // A sibling that polls needs the thread: nobody would wake a nap.
      if (siblingPolls())
        continue;
      if (waitHere(done, 0, 0, std::min(deadline, now + kFiberNap)) || done())
        return false;
    }
    if (deadline == Clock::time_point::min())
      deadline = after(Clock::now(), timeout);
    return waitHere(done, spinNanos, yields, deadline);
  }

  /// Wakes the sleeping waiters; call after making the condition true.
  void wake() {
    if (sleepers.load(std::memory_order_seq_cst) == 0)
      return;
    // Taking the mutex orders this notify after a sleeper's check of the
    // condition: it holds the mutex from that check until it sleeps.
    { std::lock_guard<std::mutex> lock(mutex); }
    cond.notify_all();
  }

private:
  /// wait() without switching fibers: spins, yields the core, sleeps.
  template <typename Pred>
  bool waitHere(Pred done, int64_t spinNanos, int32_t yields,
                Clock::time_point deadline) {
    if (done())
      return true;
    // The spin is bounded by time, not iterations: a pause instruction takes
    // from a few to over a hundred cycles depending on the CPU.
    if (spinNanos > 0) {
      auto deadline = std::chrono::steady_clock::now() +
                      std::chrono::nanoseconds(spinNanos);
      // Unless threads are pinned, the spinner yields now and then: when the
      // thread it waits for shares its core (as a new thread may until the
      // scheduler spreads them), that thread then runs at once instead of
      // after the whole spin. Pinned threads have a core each, and a yield
      // would only add a system call to the wait.
      for (uint32_t round = 1;; ++round) {
        for (int i = 0; i < 16; ++i) {
          cpuRelax();
          if (done())
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline)
          break;
        if (round % kRoundsPerYield == 0 &&
            spinnersMayShareCores.load(std::memory_order_relaxed))
          yieldThread();
      }
    }
    for (int32_t i = 0; i < yields; ++i) {
      yieldThread();
      if (done())
        return false;
    }
    std::unique_lock<std::mutex> lock(mutex);
    sleepers.fetch_add(1, std::memory_order_seq_cst);
    while (!done())
      if (cond.wait_until(lock, deadline) == std::cv_status::timeout)
        break;
    sleepers.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }

  /// `timeout` after `now`, or the end of time if that is later.
  static Clock::time_point after(Clock::time_point now,
                                 Clock::duration timeout) {
    return timeout >= Clock::time_point::max() - now ? Clock::time_point::max()
                                                     : now + timeout;
  }

  /// How long a fiber whose siblings all wait sleeps before it checks again
  /// whether one of them can run.
  static constexpr std::chrono::microseconds kFiberNap{100};
  /// Spin rounds (16 pauses and a clock read each, about 1 µs) per yield.
  static constexpr uint32_t kRoundsPerYield = 4;

  std::atomic<int32_t> sleepers{0};
  std::mutex mutex;
  std::condition_variable cond;
};

} // namespace pcc::runtime

#endif // PCC_LIB_RUNTIME_SYNC_H
