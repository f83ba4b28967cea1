//===- Trace.h - Devices' timelines and per-site profiles ------*- C++ -*-===//
//
// With a trace file (pcc_set_trace, --trace=FILE or PCC_TRACE), the runtime
// records every device's pmap runs, the compute between its collectives, and
// each collective split into waiting for the group and moving data, with
// its source location (on the host, or on the host's clock for GPU streams:
// pcc_cuda_launch and cudaCollective); at exit it writes them as Chrome
// trace-event JSON (chrome://tracing, ui.perfetto.dev). With a profile
// (--profile or PCC_PROFILE=1) it prints a table per collective site at exit.
// A run that ends with an error (which skips the exit handlers) writes
// neither.
// Off, the cost is one load and branch per pmap launch and per collective.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_TRACE_H
#define PCC_LIB_RUNTIME_TRACE_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace pcc::runtime::trace {

using Clock = std::chrono::steady_clock;

/// Whether anything is recorded; set before any device runs.
extern std::atomic<bool> enabled;

inline bool on() { return enabled.load(std::memory_order_relaxed); }

enum class Phase : uint8_t { Pmap, Compute, Collective, Wait, Transfer };

/// Records a span of `device`. `name` is the collective's ("psum"),
/// `site` its source location (or null).
void record(Phase phase, int64_t device, const char *name, const char *site,
            Clock::time_point start, Clock::time_point end);

/// Records a collective of `device` from `start` to now, and the compute
/// since the device's previous collective (or its pmap's start).
void recordCollective(int64_t device, const char *name, const char *site,
                      Clock::time_point start);

/// One collective of one device, recorded as it goes when tracing is on
/// (else it does nothing): each enter() ends the phase the collective was
/// in (waiting for its group or moving data; none at first) and begins the
/// next; finish() ends the last and records the collective, from its
/// construction to now.
class CollectiveSpans {
public:
  /// Not traced.
  CollectiveSpans() = default;
  /// `site`: the collective's source location (or null).
  CollectiveSpans(int64_t device, const char *name, const char *site)
      : traced(on()), device(device), name(name), site(site) {
    if (traced)
      start = since = Clock::now();
  }
  bool isTraced() const { return traced; }
  void enter(std::optional<Phase> next) {
    if (traced)
      enter(next, Clock::now());
  }
  /// enter() at `at`, a time not before the current phase began (a later
  /// one if not).
  void enter(std::optional<Phase> next, Clock::time_point at);
  void finish();

private:
  bool traced = false;
  int64_t device = 0;
  const char *name = nullptr, *site = nullptr;
  std::optional<Phase> phase;
  Clock::time_point start, since;
};

/// Runs `body` on `device` between the records of a pmap run.
void runTraced(void (*body)(void *, int64_t), void *args, int64_t device);

/// Reads PCC_TRACE and PCC_PROFILE where pcc_set_trace did not set them,
/// opens the trace file and arranges the output at exit. Returns false
/// after printing an error.
bool initialize();

} // namespace pcc::runtime::trace

#endif // PCC_LIB_RUNTIME_TRACE_H
