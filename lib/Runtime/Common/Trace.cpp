//===- Trace.cpp - Devices' timelines and per-site profiles ---------------===//
//
// Each thread appends its spans to a buffer of its own (one lock per thread,
// at its first span); at exit the buffers are merged into the trace file
// and the profile. With a profile and no trace file, each buffer keeps only
// sums per call site, so that a long run does not grow. The file is written
// beside its name and renamed into place, so that a run that ends with an
// error leaves the previous trace, not a partial one. Under mpirun every
// process writes its own file: FILE for process 0, FILE.<rank> for the
// others, each process a `pid` of its own.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"
#include "Processes.h"
#include "RuntimeError.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace pcc::runtime::trace {

std::atomic<bool> enabled{false};

namespace {

struct Event {
  Phase phase;
  int64_t device;
  const char *name;
  const char *site;
  Clock::time_point start, end;
};

/// A collective site's sums for the profile.
struct Totals {
  int64_t calls = 0;
  Clock::duration total{}, wait{}, transfer{};
};

struct Buffer {
  std::vector<Event> events; ///< With a trace file.
  /// With a profile, keyed by the site (or, without one, the op's name).
  std::unordered_map<const char *, Totals> totals;
  /// Where each device run on this thread ended its last span (its pmap
  /// run's start, or its last collective's end): a device's fiber stays on
  /// the thread that started it.
  std::unordered_map<int64_t, Clock::time_point> lastEnd;
  /// Copies of the call sites' texts, which live in the program's code: the
  /// JIT's is gone by the time the exit handler writes the spans.
  std::unordered_map<const char *, std::string> sites;

  const char *copyOf(const char *site) {
    if (!site)
      return nullptr;
    auto found = sites.find(site);
    if (found == sites.end())
      found = sites.emplace(site, site).first;
    return found->second.c_str();
  }

  /// Keeps `e` for the trace, or adds it to the profile's sums.
  void add(const Event &e);
};

struct State {
  std::mutex mutex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  bool pathSet = false, profileSet = false; ///< By pcc_set_trace.
  std::string path;                         ///< The trace file ("": none).
  bool profile = false;
  Clock::time_point origin = Clock::now();
};

/// Never destroyed: the spans are written by an exit handler.
State &state() {
  static State *s = new State;
  return *s;
}

void Buffer::add(const Event &e) {
  State &s = state();
  if (!s.path.empty())
    events.push_back(e);
  if (!s.profile || e.phase == Phase::Pmap || e.phase == Phase::Compute)
    return;
  Totals &t = totals[e.site ? e.site : e.name];
  Clock::duration d = e.end - e.start;
  if (e.phase == Phase::Collective) {
    ++t.calls;
    t.total += d;
  } else {
    (e.phase == Phase::Wait ? t.wait : t.transfer) += d;
  }
}

Buffer &buffer() {
  thread_local Buffer *mine = nullptr;
  if (!mine) {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.buffers.push_back(std::make_unique<Buffer>());
    mine = s.buffers.back().get();
  }
  return *mine;
}

const char *phaseName(Phase phase) {
  switch (phase) {
  case Phase::Pmap:
    return "pmap";
  case Phase::Compute:
    return "compute";
  case Phase::Collective:
    return "collective";
  case Phase::Wait:
    return "wait";
  case Phase::Transfer:
    return "transfer";
  }
  return "";
}

/// A collective's name as the program spells it ("psum", from its site
/// "spmd.psum over ..."), else the runtime's.
std::string opName(const char *name, const char *site) {
  if (site && !std::strncmp(site, "spmd.", 5))
    return std::string(site + 5, std::strcspn(site + 5, " "));
  return name ? name : "collective";
}

/// The length of the valid UTF-8 sequence at `p` (0: none).
size_t utf8Length(const unsigned char *p) {
  auto continues = [&](int i) { return (p[i] & 0xC0) == 0x80; };
  if (p[0] < 0x80)
    return 1;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    return continues(1) ? 2 : 0;
  if (p[0] >= 0xE0 && p[0] <= 0xEF) {
    // No overlong forms, no surrogates.
    bool ok = continues(1) && continues(2) && !(p[0] == 0xE0 && p[1] < 0xA0) &&
              !(p[0] == 0xED && p[1] > 0x9F);
    return ok ? 3 : 0;
  }
  if (p[0] >= 0xF0 && p[0] <= 0xF4) {
    bool ok = continues(1) && continues(2) && continues(3) &&
              !(p[0] == 0xF0 && p[1] < 0x90) && !(p[0] == 0xF4 && p[1] > 0x8F);
    return ok ? 4 : 0;
  }
  return 0;
}

/// `text` as a JSON string's contents: quotes, backslashes and control
/// characters escaped, bytes that are not UTF-8 replaced by U+FFFD (a
/// source path may be in another encoding).
std::string jsonEscaped(const std::string &text) {
  std::string out;
  const auto *p = reinterpret_cast<const unsigned char *>(text.c_str());
  while (*p) {
    if (*p == '"' || *p == '\\') {
      out += '\\';
      out += char(*p++);
    } else if (*p < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", *p++);
      out += escape;
    } else if (size_t n = utf8Length(p)) {
      out.append(reinterpret_cast<const char *>(p), n);
      p += n;
    } else {
      out += "\\ufffd";
      ++p;
    }
  }
  return out;
}

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

/// Writes the events as Chrome trace-event JSON to `file`.
void writeTrace(std::FILE *f, const std::vector<Event> &events,
                Clock::time_point origin) {
  long long pid = processLayout().rank;
  std::fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  std::fprintf(f,
               "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %lld, "
               "\"args\": {\"name\": \"pcc process %lld\"}}",
               pid, pid);
  std::vector<int64_t> devices;
  for (const Event &e : events)
    devices.push_back(e.device);
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  for (int64_t d : devices)
    std::fprintf(f,
                 ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": "
                 "%lld, \"tid\": %lld, \"args\": {\"name\": \"device %lld\"}}",
                 pid, (long long)d, (long long)d);
  for (const Event &e : events) {
    std::string name = e.phase == Phase::Collective ? opName(e.name, e.site)
                                                    : phaseName(e.phase);
    std::fprintf(f,
                 ",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", "
                 "\"pid\": %lld, \"tid\": %lld, \"ts\": %.3f, \"dur\": %.3f",
                 jsonEscaped(name).c_str(), phaseName(e.phase), pid,
                 (long long)e.device, micros(e.start - origin),
                 micros(e.end - e.start));
    if (e.site)
      std::fprintf(f, ", \"args\": {\"site\": \"%s\"}",
                   jsonEscaped(e.site).c_str());
    std::fprintf(f, "}");
  }
  std::fprintf(f, "\n]}\n");
}

std::string seconds(Clock::duration d) {
  double us = micros(d);
  char text[32];
  if (us < 1000)
    std::snprintf(text, sizeof text, "%.2f us", us);
  else if (us < 1e6)
    std::snprintf(text, sizeof text, "%.2f ms", us / 1e3);
  else
    std::snprintf(text, sizeof text, "%.2f s", us / 1e6);
  return text;
}

/// Prints the sums per site of every buffer, sites merged by their text.
void printProfile(State &s) {
  std::map<std::string, Totals> rows;
  for (auto &b : s.buffers)
    for (const auto &[key, t] : b->totals) {
      // A key is a site's text, or an op's name where it has none.
      std::string site = key;
      if (site.rfind("spmd.", 0) != 0)
        site += " (no source location)";
      Totals &row = rows[site];
      row.calls += t.calls;
      row.total += t.total;
      row.wait += t.wait;
      row.transfer += t.transfer;
    }
  std::string whose =
      multiProcess()
          ? " of process " + std::to_string(processLayout().rank) + "'s devices"
          : " over devices";
  std::fprintf(stderr,
               "pcc: profile, per collective site, summed%s:\n"
               "%8s %12s %12s %12s  %s\n",
               whose.c_str(), "calls", "total", "wait", "transfer", "site");
  for (const auto &[site, row] : rows)
    std::fprintf(stderr, "%8lld %12s %12s %12s  %s\n", (long long)row.calls,
                 seconds(row.total).c_str(), seconds(row.wait).c_str(),
                 seconds(row.transfer).c_str(), site.c_str());
}

/// Where the trace is written: beside its name, then renamed to it, so that
/// an earlier trace stays whole until the new one is; but a name that is
/// not a regular file's (a device such as /dev/null, a FIFO, a symbolic
/// link) is written through, never replaced.
std::string partialPath(const State &s) {
  struct stat existing;
  if (lstat(s.path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
    return s.path;
  return s.path + ".partial";
}

/// The error of a trace that cannot be written at `path` (errno says why).
void reportUnwritable(const std::string &path) {
  reportError("cannot write the trace '" + path + "': " + std::strerror(errno),
              "pcc: error");
}

void writeAtExit() {
  State &s = state();
  if (s.profile)
    printProfile(s);
  if (s.path.empty())
    return;
  std::vector<Event> events;
  for (auto &b : s.buffers)
    events.insert(events.end(), b->events.begin(), b->events.end());
  std::stable_sort(
      events.begin(), events.end(), [](const Event &a, const Event &b) {
        return a.start < b.start || (a.start == b.start && a.phase < b.phase);
      });
  std::string partial = partialPath(s);
  std::FILE *f = std::fopen(partial.c_str(), "w");
  bool written = f != nullptr;
  if (f) {
    writeTrace(f, events, s.origin);
    written = !std::ferror(f);
    written = std::fclose(f) == 0 && written;
  }
  if (!written || (partial != s.path &&
                   std::rename(partial.c_str(), s.path.c_str()) != 0)) {
    reportUnwritable(s.path);
    if (partial != s.path)
      std::remove(partial.c_str());
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

} // namespace

void record(Phase phase, int64_t device, const char *name, const char *site,
            Clock::time_point start, Clock::time_point end) {
  Buffer &b = buffer();
  b.add({phase, device, name, b.copyOf(site), start, end});
}

void recordCollective(int64_t device, const char *name, const char *site,
                      Clock::time_point start) {
  Clock::time_point end = Clock::now();
  Buffer &b = buffer();
  auto last = b.lastEnd.find(device);
  if (last != b.lastEnd.end()) {
    b.add({Phase::Compute, device, nullptr, nullptr, last->second, start});
    last->second = end;
  }
  b.add({Phase::Collective, device, name, b.copyOf(site), start, end});
}

void CollectiveSpans::enter(std::optional<Phase> next, Clock::time_point at) {
  if (!traced)
    return;
  at = std::max(at, since);
  if (phase)
    record(*phase, device, name, site, since, at);
  phase = next;
  since = at;
}

void CollectiveSpans::finish() {
  if (!traced)
    return;
  enter(std::nullopt);
  recordCollective(device, name, site, start);
}

void runTraced(void (*body)(void *, int64_t), void *args, int64_t device) {
  Clock::time_point start = Clock::now();
  buffer().lastEnd[device] = start;
  body(args, device);
  Clock::time_point end = Clock::now();
  Buffer &b = buffer();
  b.add({Phase::Compute, device, nullptr, nullptr, b.lastEnd[device], end});
  b.lastEnd.erase(device);
  b.add({Phase::Pmap, device, nullptr, nullptr, start, end});
}

/// What this run records: pcc_set_trace's choices, else PCC_TRACE's path
/// (empty: none) and PCC_PROFILE's 0 or 1. False, with `error`, when
/// PCC_PROFILE is something else.
static bool requested(std::string &path, bool &profile,
                      std::string &error) {
  const State &s = state();
  path = s.path;
  profile = s.profile;
  if (!s.pathSet)
    if (const char *variable = std::getenv("PCC_TRACE"))
      path = variable;
  if (!s.profileSet)
    if (const char *variable = std::getenv("PCC_PROFILE")) {
      if (std::strcmp(variable, "0") && std::strcmp(variable, "1")) {
        error = std::string("PCC_PROFILE must be 1 (print a profile per "
                            "collective site at exit) or 0, not '") +
                variable + "'";
        return false;
      }
      profile = *variable == '1';
    }
  return true;
}

bool initialize() {
  static bool done = false, ok = true;
  if (done)
    return ok;
  done = true;
  State &s = state();
  std::string error;
  if (!requested(s.path, s.profile, error)) {
    reportError(error);
    return ok = false;
  }
  if (!s.path.empty()) {
    // Under mpirun each process writes a file of its own, but a device
    // (/dev/null, a terminal) or a FIFO is shared: every process writes
    // through to it, never to a file named after it beside it.
    struct stat named;
    bool shared = stat(s.path.c_str(), &named) == 0 &&
                  !S_ISREG(named.st_mode) && !S_ISDIR(named.st_mode);
    if (processLayout().rank > 0 && !shared)
      s.path += "." + std::to_string(processLayout().rank);
    // Checked now, so that a run is not lost to a typo in the name: the
    // file beside it can be made, and the name is not a directory's.
    // (A name written through is only checked for permission: opening a
    // FIFO would wait for its reader.)
    std::string partial = partialPath(s);
    struct stat existing;
    bool writable = false;
    if (stat(s.path.c_str(), &existing) == 0 && S_ISDIR(existing.st_mode)) {
      errno = EISDIR;
    } else if (partial == s.path) {
      writable = access(s.path.c_str(), W_OK) == 0;
    } else if (std::FILE *probe = std::fopen(partial.c_str(), "w")) {
      std::fclose(probe);
      std::remove(partial.c_str());
      writable = true;
    }
    if (!writable) {
      reportUnwritable(s.path);
      return ok = false;
    }
  }
  if (s.path.empty() && !s.profile)
    return true;
  s.origin = Clock::now();
  std::atexit(writeAtExit);
  enabled.store(true, std::memory_order_relaxed);
  return true;
}

} // namespace pcc::runtime::trace

extern "C" void pcc_set_trace(const char *path, int32_t profile) {
  auto &s = pcc::runtime::trace::state();
  if (path && *path) {
    s.pathSet = true;
    s.path = path;
  }
  if (profile) {
    s.profileSet = true;
    s.profile = true;
  }
}
