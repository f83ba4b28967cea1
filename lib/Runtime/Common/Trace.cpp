//===- Trace.cpp - Devices' timelines and per-site profiles ---------------===//
//
// Each thread appends its spans to a buffer of its own (one lock per thread,
// at its first span); at exit the buffers are merged into the trace file
// and the profile. Under mpirun every process writes its own file: FILE for
// process 0, FILE.<rank> for the others, each process a `pid` of its own.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"
#include "Processes.h"

#include "pcc/Runtime/pcc_runtime.h"

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

struct Buffer {
  std::vector<Event> events;
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
};

struct State {
  std::mutex mutex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  bool configured = false; ///< pcc_set_trace was called.
  std::string path;        ///< The trace file ("": none).
  bool profile = false;
  std::FILE *file = nullptr;
  Clock::time_point origin = Clock::now();
};

/// Never destroyed: the spans are written by an exit handler.
State &state() {
  static State *s = new State;
  return *s;
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

/// `text` as a JSON string's contents.
std::string jsonEscaped(const char *text) {
  std::string out;
  for (const char *c = text; *c; ++c) {
    if (*c == '"' || *c == '\\') {
      out += '\\';
      out += *c;
    } else if (static_cast<unsigned char>(*c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", *c);
      out += escape;
    } else {
      out += *c;
    }
  }
  return out;
}

/// A collective's name as the program spells it ("psum", from its site
/// "spmd.psum over ..."), else the runtime's.
std::string opName(const Event &e) {
  if (e.site && !std::strncmp(e.site, "spmd.", 5))
    return std::string(e.site + 5, std::strcspn(e.site + 5, " "));
  return e.name ? e.name : "collective";
}

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

void writeTrace(State &s, const std::vector<Event> &events) {
  int64_t pid = processLayout().rank;
  std::FILE *f = s.file;
  std::fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  std::fprintf(f,
               "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %lld, "
               "\"args\": {\"name\": \"pcc process %lld\"}}",
               (long long)pid, (long long)pid);
  std::vector<int64_t> devices;
  for (const Event &e : events)
    devices.push_back(e.device);
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  for (int64_t d : devices)
    std::fprintf(f,
                 ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": "
                 "%lld, \"tid\": %lld, \"args\": {\"name\": \"device %lld\"}}",
                 (long long)pid, (long long)d, (long long)d);
  for (const Event &e : events) {
    std::string name =
        e.phase == Phase::Collective ? opName(e) : phaseName(e.phase);
    std::fprintf(f,
                 ",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", "
                 "\"pid\": %lld, \"tid\": %lld, \"ts\": %.3f, \"dur\": %.3f",
                 name.c_str(), phaseName(e.phase), (long long)pid,
                 (long long)e.device, micros(e.start - s.origin),
                 micros(e.end - e.start));
    if (e.site)
      std::fprintf(f, ", \"args\": {\"site\": \"%s\"}",
                   jsonEscaped(e.site).c_str());
    std::fprintf(f, "}");
  }
  std::fprintf(f, "\n]}\n");
  if (std::fclose(f) != 0)
    std::fprintf(stderr, "pcc: error: cannot write the trace '%s': %s\n",
                 s.path.c_str(), std::strerror(errno));
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

void printProfile(const std::vector<Event> &events) {
  struct Row {
    int64_t calls = 0;
    Clock::duration total{}, wait{}, transfer{};
  };
  // Keyed by the site's text: generated code passes the same pointer at
  // every call of a site, but two sites never share a text.
  std::map<std::string, Row> rows;
  for (const Event &e : events) {
    std::string key = e.site ? e.site : opName(e) + " (no source location)";
    if (e.phase == Phase::Collective) {
      Row &row = rows[key];
      ++row.calls;
      row.total += e.end - e.start;
    } else if (e.phase == Phase::Wait) {
      rows[key].wait += e.end - e.start;
    } else if (e.phase == Phase::Transfer) {
      rows[key].transfer += e.end - e.start;
    }
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

void writeAtExit() {
  State &s = state();
  std::vector<Event> events;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto &b : s.buffers)
      events.insert(events.end(), b->events.begin(), b->events.end());
  }
  std::stable_sort(
      events.begin(), events.end(), [](const Event &a, const Event &b) {
        return a.start < b.start || (a.start == b.start && a.phase < b.phase);
      });
  if (s.file)
    writeTrace(s, events);
  if (s.profile)
    printProfile(events);
}

} // namespace

void record(Phase phase, int64_t device, const char *name, const char *site,
            Clock::time_point start, Clock::time_point end) {
  Buffer &b = buffer();
  b.events.push_back({phase, device, name, b.copyOf(site), start, end});
}

void recordCollective(int64_t device, const char *name, const char *site,
                      Clock::time_point start) {
  Clock::time_point end = Clock::now();
  Buffer &b = buffer();
  auto last = b.lastEnd.find(device);
  if (last != b.lastEnd.end()) {
    b.events.push_back(
        {Phase::Compute, device, nullptr, nullptr, last->second, start});
    last->second = end;
  }
  b.events.push_back(
      {Phase::Collective, device, name, b.copyOf(site), start, end});
}

void runTraced(void (*body)(void *, int64_t), void *args, int64_t device) {
  Clock::time_point start = Clock::now();
  buffer().lastEnd[device] = start;
  body(args, device);
  Clock::time_point end = Clock::now();
  Buffer &b = buffer();
  b.events.push_back(
      {Phase::Compute, device, nullptr, nullptr, b.lastEnd[device], end});
  b.lastEnd.erase(device);
  b.events.push_back({Phase::Pmap, device, nullptr, nullptr, start, end});
}

bool initialize() {
  static bool done = false, ok = true;
  if (done)
    return ok;
  done = true;
  State &s = state();
  if (!s.configured) {
    if (const char *path = std::getenv("PCC_TRACE"))
      s.path = path;
    if (const char *profile = std::getenv("PCC_PROFILE")) {
      if (std::strcmp(profile, "0") && std::strcmp(profile, "1")) {
        std::fprintf(stderr,
                     "pcc runtime error: PCC_PROFILE must be 1 (print a "
                     "profile per collective site at exit) or 0, not '%s'\n",
                     profile);
        return ok = false;
      }
      s.profile = *profile == '1';
    }
  }
  if (!s.path.empty()) {
    if (processLayout().rank > 0)
      s.path += "." + std::to_string(processLayout().rank);
    s.file = std::fopen(s.path.c_str(), "w");
    if (!s.file) {
      std::fprintf(stderr, "pcc: error: cannot write the trace '%s': %s\n",
                   s.path.c_str(), std::strerror(errno));
      return ok = false;
    }
  }
  if (!s.file && !s.profile)
    return true;
  s.origin = Clock::now();
  std::atexit(writeAtExit);
  enabled.store(true, std::memory_order_relaxed);
  return true;
}

} // namespace pcc::runtime::trace

extern "C" void pcc_set_trace(const char *path, int32_t profile) {
  auto &s = pcc::runtime::trace::state();
  s.configured = true;
  s.path = path ? path : "";
  s.profile = profile != 0;
}
