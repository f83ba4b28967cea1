//===- Interrupt.cpp - What SIGINT, SIGTERM and SIGHUP undo ---------------===//

#include "pcc/Host/Interrupt.h"

#include "pcc/Runtime/pcc_runtime.h"

#include <unistd.h>

#include <csignal>
#include <cstring>

using namespace pcc::host;

namespace {
void (*undoExtraOnInterrupt)() = nullptr;
/// The files being written; whoever takes them (the handler or their
/// destructor) owns them from then on.
std::atomic<const PartialFiles *> partialFiles{nullptr};

void writeMessage(const char *text) {
  (void)!write(STDERR_FILENO, text, std::strlen(text));
}

extern "C" void onInterrupt(int signal) {
  if (undoExtraOnInterrupt)
    undoExtraOnInterrupt();
  if (const PartialFiles *files = partialFiles.exchange(nullptr))
    files->remove();
  // Under mpirun, which signals every process when one has failed (and
  // that one has said why) or when it is interrupted, mpirun reports how
  // the job ended.
  if (pcc_process_count() <= 1)
    writeMessage(signal == SIGINT    ? "pcc: interrupted\n"
                 : signal == SIGTERM ? "pcc: terminated (SIGTERM)\n"
                                     : "pcc: hangup (SIGHUP)\n");
  _exit(128 + signal);
}
} // namespace

void pcc::host::installInterruptHandlers(void (*undoExtra)()) {
  undoExtraOnInterrupt = undoExtra;
  struct sigaction action = {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&action.sa_mask, signal);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    sigaction(signal, &action, nullptr);
}

PartialFiles::PartialFiles(std::vector<std::string> temporaries,
                           std::vector<std::string> finals,
                           std::vector<std::string> directories)
    : temporaries(std::move(temporaries)), finals(std::move(finals)),
      directories(std::move(directories)) {
  partialFiles.store(this);
}

PartialFiles::~PartialFiles() {
  // A handler that took the files first is removing them and ends the
  // process: this thread must not free them under it.
  if (partialFiles.exchange(nullptr) != this)
    for (;;)
      pause();
}

void PartialFiles::remove() const {
  for (const std::string &path : temporaries)
    unlink(path.c_str());
  for (size_t i = 0, n = renamed.load(); i < n && i < finals.size(); ++i)
    unlink(finals[i].c_str());
  for (auto it = directories.rbegin(); it != directories.rend(); ++it)
    rmdir(it->c_str());
}
