//===- ProgramMain.cpp - main() of the executables pcc compile writes -----===//
//
// `pcc compile PROGRAM.mlir -o OUT` links the compiled program with this
// file and the runtime: OUT takes the entry's arguments as `.npy` files and
// prints its results exactly as `pcc run` does, with the run options of
// `pcc run` (RunOptions.h). The compiled object provides what is specific to
// the program: the packed entry function, its signature in the text form of
// pcc::host::encodeSignature, the backend it was compiled for and its number of
// devices.
//
//===----------------------------------------------------------------------===//

#include "pcc/Host/Host.h"
#include "pcc/Host/Interrupt.h"
#include "pcc/Host/RunOptions.h"
#include "pcc/Runtime/pcc_runtime.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
// The cuda runtime, linked into executables of the cuda backend only.
int32_t pcc_cuda_init(int64_t num_devices, int32_t oversubscribe, char *message,
                      size_t size) __attribute__((weak));
int32_t pcc_cuda_simulate(int64_t gpus, char *message, size_t size)
    __attribute__((weak));
extern const char _pcc_program_signature[];
extern const char _pcc_program_backend[];
extern const int64_t _pcc_program_devices;
extern const int64_t _pcc_program_process_split;
void _pcc_program_entry(void **packedArguments);
}

using namespace pcc::host;

namespace {
int fail(const std::string &message) {
  // Under mpirun every process meets the same errors: process 0 reports.
  if (pcc_process_rank() != 0)
    return 1;
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", "pcc", message.c_str());
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  installInterruptHandlers();
  EntrySignature signature;
  std::string error;
  if (!decodeSignature(_pcc_program_signature, signature, error))
    return fail(error);
  bool simulated = std::strcmp(_pcc_program_backend, "cuda-sim") == 0;
  bool cuda = simulated || std::strcmp(_pcc_program_backend, "cuda") == 0;
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf("usage: %s [ARG.npy ...] %s\n\n"
                  "Runs the pcc program compiled into this file (entry and "
                  "backend below)\nand prints its results as NumPy prints "
                  "them.\n\n%s",
                  argv[0], getRunOptionsSynopsis().c_str(),
                  getRunOptionsHelp().c_str());
      std::printf("\nentry: @%s, backend: %s, devices: %lld\n",
                  signature.name.c_str(), _pcc_program_backend,
                  static_cast<long long>(_pcc_program_devices));
      return 0;
    }
  char message[512] = "";
  if (pcc_processes_init(message, sizeof(message)) != 0)
    return fail(std::string("mpirun: ") + message);
  RunOptions options;
  std::vector<std::string> files;
  if (!parseRunArguments(argc, argv, options, files, error))
    return fail(error);
  if (pcc_process_rank() != 0)
    options.verbose = options.timeRuns = false;
  int64_t processes = pcc_process_count(), split = _pcc_program_process_split;
  if (processes > 1 && split % processes != 0)
    return fail("this program's pmaps (on up to " +
                std::to_string(_pcc_program_devices) +
                " devices) do not split over " + std::to_string(processes) +
                " processes: run with a number of processes that divides " +
                std::to_string(split) + " (mpirun -np P)");

  BufferAllocator allocator = hostAllocator();
  if (cuda) {
    if (!pcc_cuda_init || !pcc_cuda_simulate)
      return fail("this executable was linked without pcc's cuda runtime");
    if (simulated &&
        pcc_cuda_simulate(_pcc_program_devices, message, sizeof(message)) != 0)
      return fail(std::string(_pcc_program_backend) + " backend: " + message);
    if (pcc_cuda_init(_pcc_program_devices, options.oversubscribe, message,
                      sizeof(message)) != 0)
      return fail(std::string(_pcc_program_backend) + " backend: " + message);
    allocator = gpuAllocator();
  } else if (options.oversubscribe) {
    return fail("--oversubscribe applies to the cuda backend only; this "
                "program was compiled for cpu");
  }
  if (options.verbose)
    std::fprintf(stderr, "pcc: backend: %s\npcc: devices: %lld\n",
                 _pcc_program_backend,
                 static_cast<long long>(_pcc_program_devices));

  if (options.memoryLimit)
    pcc_set_memory_limit(options.memoryLimit);
  if (!options.trace.empty() || options.profile)
    pcc_set_trace(options.trace.c_str(), options.profile);
  // More copies than runs would never be used.
  unsigned long copies = std::min(options.rotate, options.repeat);
  std::vector<pcc::arrayio::Array> arguments;
  if (!loadArguments(signature, files, arguments, error) ||
      !checkMemoryLimit(signature, pcc_memory_limit(), copies, error))
    return fail(error);
  std::vector<std::unique_ptr<EntryCall>> calls =
      createEntryCalls(signature, arguments, allocator, copies, error);
  if (calls.empty())
    return fail(error);

  std::vector<double> times =
      runRepeatedly(_pcc_program_entry, calls, options.repeat);
  if (options.timeRuns)
    printRunTimes(times);
  else if (options.verbose)
    std::fprintf(stderr, "pcc: run: %.6f s\n", times.front());
  std::vector<pcc::arrayio::Array> results = takeResults(calls, options.repeat);
  // Every process of an MPI job holds the same results.
  if (pcc_process_rank() != 0)
    return 0;
  for (const pcc::arrayio::Array &result : results)
    std::printf("%s\n", pcc::arrayio::formatArray(result).c_str());
  // Results that did not reach standard output (a full disk, a closed
  // descriptor) are a failed run, not a silent one.
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return fail(std::string("cannot write the results to standard output: ") +
                std::strerror(errno ? errno : EIO));
  if (!options.saveResults.empty() &&
      !saveResults(options.saveResults, results, error))
    return fail(error);
  return 0;
}
