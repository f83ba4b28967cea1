//===- RunOptions.cpp - the options of a run, defined once ---------------===//

#include "pcc/Host/RunOptions.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace pcc::host;

const std::vector<RunOptionSpec> pcc::host::kRunOptions = {
    {"save-results", "DIR", "Also write the results as DIR/result<i>.npy"},
    {"repeat", "N", "Run the entry N times and print each run's time"},
    {"rotate", "K",
     "Cycle the --repeat runs through K copies of the entry's buffers, so "
     "that no run finds its data in cache (benchmarks)"},
    {"verbose", nullptr, "Print the backend, devices and phase times"},
    {"oversubscribe", nullptr,
     "cuda: place several devices on one GPU when the program has more "
     "devices than there are GPUs"},
    {"memory-limit", "SIZE",
     "The most memory the program's buffers may hold (default: the "
     "machine's physical memory), e.g. 512M, 2G"},
    {"trace", "FILE",
     "Write every device's timeline (pmap runs, compute, each collective's "
     "waiting and moving data) to FILE as Chrome trace-event JSON, for "
     "ui.perfetto.dev or chrome://tracing"},
    {"profile", nullptr,
     "At exit, print a table per collective site: calls, total, wait and "
     "transfer time"},
};

static const RunOptionSpec *findRunOption(const std::string &name) {
  for (const RunOptionSpec &spec : kRunOptions)
    if (name == spec.name)
      return &spec;
  return nullptr;
}

/// A whole number from 1 to `max`.
static bool parseCount(const std::string &name, const char *value,
                       unsigned long max, unsigned long &count,
                       std::string &error) {
  char *end = nullptr;
  count = std::strtoul(value, &end, 10);
  // strtoul accepts a sign and wraps a negative number around.
  if (!*value || *end || !(*value >= '0' && *value <= '9') || count == 0 ||
      count > max) {
    error = "--" + name + " must be a whole number from 1 to " +
            std::to_string(max) + ", got '" + value + "'";
    return false;
  }
  return true;
}

/// A positive whole number of bytes with an optional binary suffix (`K`,
/// `M`, `G`, `T`, optionally followed by `iB` or `B`): `512M`, `2GiB`.
static bool parseByteSize(const std::string &text, int64_t &bytes) {
  size_t end = 0;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9')
    ++end;
  if (end == 0 || end > 18)
    return false;
  uint64_t value = std::stoull(text.substr(0, end));
  std::string suffix = text.substr(end);
  int shift = 0;
  if (!suffix.empty()) {
    const std::string units = "KMGT";
    size_t unit = units.find(suffix[0]);
    if (unit == std::string::npos)
      return false;
    shift = 10 * int(unit + 1);
    std::string rest = suffix.substr(1);
    if (!rest.empty() && rest != "B" && rest != "iB")
      return false;
  }
  if (value > (uint64_t(INT64_MAX) >> shift))
    return false;
  bytes = int64_t(value << shift);
  return bytes > 0;
}

/// Whether the results could be saved in `dir` (--save-results): checked
/// before the run, so that a long run does not end in an error that was
/// there from its start. `dir`, or else the nearest of its parents that
/// exists, must be a directory this process may write in (saveResults
/// reports what fails later all the same).
static bool checkResultsDirectory(const std::string &dir, std::string &error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path existing = dir;
  while (!fs::exists(existing, ec) && existing.has_parent_path() &&
         existing != existing.parent_path())
    existing = existing.parent_path();
  if (!fs::exists(existing, ec))
    existing = ".";
  if (!fs::is_directory(existing, ec)) {
    error = "cannot create the directory '" + dir +
            "' for --save-results: " + std::strerror(ENOTDIR);
    return false;
  }
  if (::access(existing.c_str(), W_OK | X_OK) == 0)
    return true;
  error = "cannot " +
          std::string(existing == fs::path(dir) ? "write in" : "create") +
          " the directory '" + dir +
          "' for --save-results: " + std::strerror(errno);
  return false;
}

bool pcc::host::setRunOption(RunOptions &options, const std::string &name,
                             const char *value, std::string &error) {
  const RunOptionSpec *spec = findRunOption(name);
  if (!spec) {
    error = "unknown option '--" + name + "' (see --help)";
    return false;
  }
  if (!spec->valueName != !value) {
    error = !spec->valueName ? "--" + name + " takes no value"
                             : "--" + name + " needs a value: --" + name + "=" +
                                   spec->valueName;
    return false;
  }
  if (name == "save-results") {
    options.saveResults = value;
    if (options.saveResults.empty()) {
      error = "--save-results needs a directory: --save-results=DIR";
      return false;
    }
    return checkResultsDirectory(options.saveResults, error);
  }
  if (name == "repeat") {
    options.timeRuns = true;
    return parseCount(name, value, kMaxRepeat, options.repeat, error);
  }
  if (name == "rotate")
    return parseCount(name, value, kMaxRotate, options.rotate, error);
  if (name == "memory-limit") {
    if (parseByteSize(value, options.memoryLimit))
      return true;
    error = "--memory-limit takes a size such as 512M or 2G, got '" +
            std::string(value) + "'";
    return false;
  }
  if (name == "trace") {
    options.trace = value;
    if (options.trace.empty()) {
      error = "--trace needs a file: --trace=FILE";
      return false;
    }
    return true;
  }
  if (name == "verbose")
    options.verbose = true;
  else if (name == "profile")
    options.profile = true;
  else
    options.oversubscribe = true;
  return true;
}

bool pcc::host::parseRunArguments(int argc, char **argv, RunOptions &options,
                                  std::vector<std::string> &positional,
                                  std::string &error) {
  bool positionalOnly = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (positionalOnly || arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      positionalOnly = true;
      continue;
    }
    size_t equals = arg.find('=');
    std::string name = arg.substr(0, equals);
    if (name.rfind("--", 0) != 0) {
      error = "unknown option '" + arg + "' (see --help)";
      return false;
    }
    name = name.substr(2);
    const RunOptionSpec *spec = findRunOption(name);
    if (!spec) {
      error = "unknown option '" + arg + "' (see --help)";
      return false;
    }
    // `--name=VALUE`, or `--name VALUE` as `pcc run` (LLVM's parser) takes it.
    const char *value = nullptr;
    if (equals != std::string::npos)
      value = argv[i] + equals + 1;
    else if (spec->valueName && i + 1 < argc)
      value = argv[++i];
    if (!setRunOption(options, name, value, error))
      return false;
  }
  return true;
}

std::string pcc::host::getRunOptionsSynopsis() {
  std::string synopsis;
  for (const RunOptionSpec &spec : kRunOptions)
    synopsis += std::string(synopsis.empty() ? "" : " ") + "[--" + spec.name +
                (spec.valueName ? std::string("=") + spec.valueName : "") + "]";
  return synopsis;
}

std::string pcc::host::getRunOptionsHelp() {
  std::string help;
  for (const RunOptionSpec &spec : kRunOptions) {
    std::string option =
        std::string("  --") + spec.name +
        (spec.valueName ? std::string("=") + spec.valueName : "");
    option.resize(std::max<size_t>(option.size() + 2, 24), ' ');
    help += option + spec.help + "\n";
  }
  return help;
}
