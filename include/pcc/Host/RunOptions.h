//===- RunOptions.h - the options of a run, defined once --------*- C++ -*-===//
//
// `pcc run` and the executables of `pcc compile` take the same run options
// (--save-results, --repeat, --rotate, --verbose, --oversubscribe,
// --memory-limit). Their names, help, limits and errors are defined here
// once: the executables parse their command line with parseRunArguments,
// and the driver registers one llvm::cl option per kRunOptions entry and
// hands what it collects to setRunOption. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_HOST_RUNOPTIONS_H
#define PCC_HOST_RUNOPTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace pcc::host {

/// The most runs --repeat asks for: each run's time is kept (8 bytes) and
/// printed after the last, so that printing does not disturb the runs.
constexpr unsigned long kMaxRepeat = 100000000;

/// The most buffer copies --rotate asks for.
constexpr unsigned long kMaxRotate = 1000000;

/// The options of a run, as given.
struct RunOptions {
  std::string saveResults;    ///< --save-results=DIR ("": none).
  unsigned long repeat = 1;   ///< --repeat=N.
  bool timeRuns = false;      ///< Whether --repeat was given.
  unsigned long rotate = 1;   ///< --rotate=K.
  bool verbose = false;       ///< --verbose.
  bool oversubscribe = false; ///< --oversubscribe.
  int64_t memoryLimit = 0;    ///< --memory-limit=SIZE in bytes (0: none).
  std::string trace;          ///< --trace=FILE ("": none).
  bool profile = false;       ///< --profile.
};

/// One run option as the command line spells it.
struct RunOptionSpec {
  const char *name;      ///< Without the dashes: "repeat".
  const char *valueName; ///< What its value looks like ("N"); null for flags.
  const char *help;
};

/// Every run option, in the order --help lists them.
extern const std::vector<RunOptionSpec> kRunOptions;

/// Sets option `name` of `options` from `value` (null for a flag). Returns
/// false, with `error` saying what is wrong, for a bad value.
bool setRunOption(RunOptions &options, const std::string &name,
                  const char *value, std::string &error);

/// Parses a command line of run options (`--name=VALUE`, `--flag`) and
/// positional arguments (anything else, `-` included, and everything after
/// `--`). Returns false, with `error`, for an unknown option or bad value.
bool parseRunArguments(int argc, char **argv, RunOptions &options,
                       std::vector<std::string> &positional,
                       std::string &error);

/// "[--save-results=DIR] [--repeat=N] ...", for a usage line.
std::string getRunOptionsSynopsis();

/// One line per option, "  --repeat=N  help", for --help.
std::string getRunOptionsHelp();

} // namespace pcc::host

#endif // PCC_HOST_RUNOPTIONS_H
