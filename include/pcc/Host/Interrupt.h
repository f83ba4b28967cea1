//===- Interrupt.h - What SIGINT, SIGTERM and SIGHUP undo ------*- C++ -*-===//
//
// pcc and the executables it writes end at once on SIGINT, SIGTERM or
// SIGHUP, with the shell's status for the signal (128 + its number), after
// removing what they were writing: nothing partial remains. Code that makes
// files registers them for the time it writes them; everything here that a
// signal handler runs is async-signal-safe.
//
// The handler runs on the thread the kernel picks: Linux gives a signal sent
// to the process to its main thread unless that thread blocks it, and the
// main thread is the one that writes results and runs the linker.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_HOST_INTERRUPT_H
#define PCC_HOST_INTERRUPT_H

#include <atomic>
#include <string>
#include <vector>

namespace pcc::host {

/// Installs the handlers; `undoExtra`, if given, runs first in the handler
/// (pcc's driver stops a linker it started). Call once, early in main().
void installInterruptHandlers(void (*undoExtra)() = nullptr);

/// Files being written, removed by an interrupt until release(): the
/// temporary files, the final files done so far (renamed counts them), and
/// directories made for them (removed last, innermost first, if empty).
class PartialFiles {
public:
  PartialFiles(std::vector<std::string> temporaries,
               std::vector<std::string> finals,
               std::vector<std::string> directories);
  /// Releases the files: after it, an interrupt leaves them alone.
  ~PartialFiles();
  PartialFiles(const PartialFiles &) = delete;
  PartialFiles &operator=(const PartialFiles &) = delete;

  /// How many of `finals` are complete and must go too on an interrupt.
  std::atomic<size_t> renamed{0};

  /// Removes them all (what the handler does; also on failure).
  void remove() const;

private:
  std::vector<std::string> temporaries, finals, directories;
};

} // namespace pcc::host

#endif // PCC_HOST_INTERRUPT_H
