//===- pcc.cpp - the pcc driver: compile and JIT-run an spmd program -----===//
//
// `pcc run PROGRAM.mlir [ARG.npy ...]` parses and verifies a program, lowers
// it with the backend's pipeline (pcc::buildCpuPipeline for the cpu backend,
// whose devices are host threads of the pcc runtime), JIT-compiles it with
// MLIR's ExecutionEngine and calls the entry function through the C
// interface of its `@_pcc_entry` wrapper, passing the `.npy` arguments and
// result buffers as memref descriptors; each result is then printed as NumPy
// prints it (SPEC §4). This file holds the command line and the sequence of
// phases; Compile.cpp holds the MLIR side and Marshal.cpp the data crossing
// the entry boundary. Every error ends the driver with exit status 1: located
// ones print as `FILE:LINE:COL: error: ...`, the others as
// `pcc: error: ...`, and crashes of upstream code on the main thread (an
// upstream parser's, say) are caught and reported. A crash inside generated
// code on a device thread, or a stack overflow, still ends the process.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "Marshal.h"

#include "pcc/Pipelines/Pipelines.h"
#include "pcc/Runtime/pcc_runtime.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace pcc::driver;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

namespace {
enum class Backend { Auto, Cpu, Cuda };

cl::OptionCategory pccCategory("pcc options");

cl::list<std::string> positionals(cl::Positional, cl::cat(pccCategory),
                                  cl::desc("run PROGRAM.mlir [ARG.npy ...]"));

cl::opt<std::string>
    entryName("entry", cl::cat(pccCategory),
              cl::desc("The entry function (default: main; also -e NAME)"),
              cl::value_desc("NAME"), cl::init("main"));
cl::alias entryAlias("e", cl::desc("Alias for --entry"),
                     cl::aliasopt(entryName));

cl::opt<Backend> backendOption(
    "backend", cl::cat(pccCategory), cl::desc("Where the devices run"),
    cl::init(Backend::Auto),
    cl::values(
        clEnumValN(Backend::Auto, "auto",
                   "cuda where a GPU is present (not built yet), else cpu"),
        clEnumValN(Backend::Cpu, "cpu", "one host thread per device"),
        clEnumValN(Backend::Cuda, "cuda", "one GPU per device")));

cl::opt<unsigned>
    repeatCount("repeat", cl::cat(pccCategory), cl::init(1),
                cl::desc("Run the entry N times and print each run's time"),
                cl::value_desc("N"));

cl::opt<bool> verbose("verbose", cl::cat(pccCategory),
                      cl::desc("Print the backend, devices and phase times"));

cl::opt<std::string>
    saveResultsDir("save-results", cl::cat(pccCategory),
                   cl::desc("Also write the results as DIR/result<i>.npy"),
                   cl::value_desc("DIR"));

/// Reports phase times on standard error: each compile phase and each run
/// for --verbose, the total compile time and every run for --repeat.
class PhaseTimer {
public:
  /// Ends the compile phase `name`.
  void endCompilePhase(llvm::StringRef name) {
    double seconds = lap();
    compileSeconds += seconds;
    if (verbose)
      print(name, seconds);
  }

  /// Ends compilation; the next phase is the first run.
  void endCompilation() {
    if (timeRuns)
      print("compile", compileSeconds);
    lap();
  }

  /// Ends run `run` (from 1) of `repeatCount`.
  void endRun(unsigned run) {
    double seconds = lap();
    if (timeRuns)
      print("run " + std::to_string(run) + "/" + std::to_string(repeatCount),
            seconds);
    else if (verbose)
      print("run", seconds);
  }

private:
  /// Seconds since the previous call (or construction).
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last).count();
    last = now;
    return seconds;
  }

  static void print(const llvm::Twine &what, double seconds) {
    llvm::errs() << "pcc: " << what << ": " << llvm::format("%.6f s", seconds)
                 << "\n";
  }

  /// An explicit --repeat, even --repeat=1, prints the run times.
  bool timeRuns = repeatCount.getNumOccurrences() > 0;
  double compileSeconds = 0;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// What compilation produces for the runs.
struct CompiledEntry {
  EntrySignature signature;
  std::vector<pcc::arrayio::Array> arguments;
  CompiledProgram program;
};
} // namespace

//===----------------------------------------------------------------------===//
// Phases
//===----------------------------------------------------------------------===//

/// Parses and verifies the program; errors are reported.
static OwningOpRef<ModuleOp> parseProgram(llvm::StringRef path,
                                          llvm::SourceMgr &sourceMgr,
                                          MLIRContext &context) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &message);
  if (!file) {
    reportError(message);
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// Prints each result on standard output and saves them if asked to.
static LogicalResult emitResults(llvm::ArrayRef<pcc::arrayio::Array> results) {
  for (const pcc::arrayio::Array &result : results)
    llvm::outs() << pcc::arrayio::formatArray(result) << "\n";
  llvm::outs().flush();
  if (saveResultsDir.empty())
    return success();
  if (llvm::Error error = saveResults(saveResultsDir, results)) {
    reportError(llvm::toString(std::move(error)));
    return failure();
  }
  return success();
}

/// Leaves out the operation dumps MLIR appends to errors by default: they are
/// noise for users of the driver (--mlir-print-op-on-diagnostic still asks
/// for them).
static void configureDiagnostics(MLIRContext &context) {
  auto &options = cl::getRegisteredOptions();
  auto printOp = options.find("mlir-print-op-on-diagnostic");
  if (printOp == options.end() || !printOp->second->getNumOccurrences())
    context.printOpOnDiagnostic(false);
}

/// Parses, checks, lowers and JIT-compiles the program, and reads its
/// arguments; errors are reported.
static LogicalResult compile(llvm::StringRef programPath,
                             llvm::ArrayRef<std::string> argumentFiles,
                             PhaseTimer &timer, CompiledEntry &compiled) {
  DialectRegistry registry;
  pcc::registerDialects(registry);
  // Single-threaded, so that a crash in upstream code happens on the thread
  // whose crash recovery (main) catches it.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  configureDiagnostics(context);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = parseProgram(programPath, sourceMgr, context);
  if (!module)
    return failure();
  FailureOr<EntrySignature> signature = getEntrySignature(*module, entryName);
  if (failed(signature))
    return failure();
  compiled.signature = std::move(*signature);
  auto arguments = loadArguments(compiled.signature, argumentFiles);
  if (!arguments) {
    reportError(llvm::toString(arguments.takeError()));
    return failure();
  }
  compiled.arguments = std::move(*arguments);
  if (verbose) {
    if (std::optional<int64_t> devices = countDevices(*module))
      llvm::errs() << "pcc: devices: " << *devices << " (host threads)\n";
    else
      llvm::errs() << "pcc: devices: none (the program has no spmd.pmap)\n";
  }
  timer.endCompilePhase("parse");

  if (failed(lowerForCpu(*module, entryName)))
    return failure();
  timer.endCompilePhase("passes");

  auto program = jitCompile(*module);
  if (!program) {
    reportError("cannot JIT-compile the program: " +
                llvm::toString(program.takeError()));
    return failure();
  }
  compiled.program = std::move(*program);
  timer.endCompilePhase("codegen/JIT");
  return success();
}

/// Runs the entry --repeat times and emits the results of the last run.
static LogicalResult execute(CompiledEntry &compiled, PhaseTimer &timer) {
  auto call = EntryCall::create(compiled.signature, compiled.arguments);
  if (!call) {
    reportError(llvm::toString(call.takeError()));
    return failure();
  }
  timer.endCompilation();
  for (unsigned run = 1; run <= repeatCount; ++run) {
    compiled.program.entry((*call)->packedArguments());
    timer.endRun(run);
  }
  return emitResults((*call)->results());
}

/// `pcc run`: everything after the command line.
static LogicalResult runProgram(llvm::StringRef programPath,
                                llvm::ArrayRef<std::string> argumentFiles) {
  // The cuda backend needs a driver and a GPU; `auto` uses cpu without them.
  // Its code generation is not built yet, so a found GPU is only reported.
  if (backendOption != Backend::Cpu) {
    char message[512];
    int64_t gpus = pcc_cuda_probe(message, sizeof(message));
    if (backendOption == Backend::Cuda) {
      reportError(gpus == 0
                      ? llvm::Twine("--backend=cuda: ") + message
                      : llvm::Twine("--backend=cuda: found ") + message +
                            ", but the cuda backend is not built yet (use "
                            "--backend=cpu)");
      return failure();
    }
    if (verbose)
      llvm::errs() << "pcc: backend: auto: "
                   << (gpus == 0 ? llvm::Twine(message)
                                 : llvm::Twine(message) +
                                       ", but the cuda backend is not built "
                                       "yet")
                   << "; using cpu\n";
  }
  if (verbose)
    llvm::errs() << "pcc: backend: cpu\n";
  PhaseTimer timer;
  CompiledEntry compiled;
  if (failed(compile(programPath, argumentFiles, timer, compiled)))
    return failure();
  return execute(compiled, timer);
}

/// Checks the command line and runs the command it names.
static LogicalResult runCommand() {
  if (positionals.empty()) {
    reportError("no command (usage: pcc run PROGRAM.mlir [ARG.npy ...])");
    return failure();
  }
  llvm::StringRef command = positionals.front();
  if (command == "compile") {
    reportError("'pcc compile' is not built yet; use 'pcc run'");
    return failure();
  }
  if (command != "run") {
    reportError("unknown command '" + command +
                "' (usage: pcc run PROGRAM.mlir [ARG.npy ...])");
    return failure();
  }
  if (positionals.size() < 2) {
    reportError("no program (usage: pcc run PROGRAM.mlir [ARG.npy ...])");
    return failure();
  }
  if (repeatCount == 0) {
    reportError("--repeat must be at least 1");
    return failure();
  }
  return runProgram(positionals[1],
                    llvm::ArrayRef<std::string>(positionals).drop_front(2));
}

/// Keeps --help to pcc's options and MLIR's: libLLVM.so registers hundreds
/// of its own, which --help-hidden still lists.
static void hideUnrelatedOptions() {
  for (auto &entry : cl::getRegisteredOptions()) {
    llvm::StringRef name = entry.first;
    cl::Option *option = entry.second;
    if (name.starts_with("mlir-") || name == "e" || name == "help" ||
        name == "version" ||
        llvm::is_contained(option->Categories, &pccCategory))
      continue;
    option->setHiddenFlag(cl::Hidden);
  }
}

int main(int argc, char **argv) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  hideUnrelatedOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "pcc: compile and run SPMD tensor programs\n\n"
      "  pcc run PROGRAM.mlir [ARG.npy ...] [options]\n");

  // Some upstream code crashes on unusual input; users get a one-line error
  // and exit status 1 rather than a signal.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  LogicalResult result = failure();
  if (!recovery.RunSafely([&] { result = runCommand(); })) {
    llvm::outs().flush();
    reportError("internal error: pcc crashed while compiling or running "
                "this program (a bug in pcc or upstream MLIR; please report "
                "it with the input)");
    return 1;
  }
  return succeeded(result) ? 0 : 1;
}
