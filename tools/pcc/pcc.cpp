//===- pcc.cpp - the pcc driver: compile and JIT-run an spmd program -----===//
//
// `pcc run PROGRAM.mlir [ARG.npy ...]` parses and verifies a program, lowers
// it with the backend's pipeline (pcc::buildCpuPipeline, whose devices are
// host threads of the pcc runtime, or pcc::buildCudaPipeline, one GPU or a
// share of one per device), JIT-compiles it in memory (Jit.cpp) and
// calls the entry function through the C interface of its `@_pcc_entry`
// wrapper, passing the `.npy` arguments and result buffers as memref
// descriptors; each result is then printed as NumPy prints it.
// `pcc compile PROGRAM.mlir -o OUT` lowers the same way and writes a
// standalone executable, or with --emit an intermediate form. This file
// holds the command line and the sequence of phases; Compile.cpp and
// Executable.cpp hold the MLIR and LLVM side, lib/Host the data crossing
// the entry boundary. Every error ends the driver with exit status 1: located
// ones print as `FILE:LINE:COL: error: ...`, the others as
// `pcc: error: ...`, and crashes of upstream code on the main thread (an
// upstream parser's, say) are caught and reported. A crash inside generated
// code on a device thread, or a stack overflow, still ends the process.
//
//===----------------------------------------------------------------------===//

#include "pcc/Driver/Driver.h"

#include "pcc/Host/Interrupt.h"
#include "pcc/Host/RunOptions.h"
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
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <utility>

using namespace mlir;
using namespace pcc::driver;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

namespace {
enum class BackendOption { Auto, Cpu, Cuda, CudaSim };
enum class EmitKind { Executable, MLIR, LLVM, PTX, Object };

cl::OptionCategory pccCategory("pcc options");

cl::list<std::string>
    positionals(cl::Positional, cl::cat(pccCategory),
                cl::desc("run PROGRAM.mlir [ARG.npy ...] | compile "
                         "PROGRAM.mlir -o OUT"));

cl::opt<std::string>
    entryName("entry", cl::cat(pccCategory),
              cl::desc("The entry function (default: main; also -e NAME)"),
              cl::value_desc("NAME"), cl::init("main"));
cl::alias entryAlias("e", cl::desc("Alias for --entry"),
                     cl::aliasopt(entryName));

cl::opt<BackendOption> backendOption(
    "backend", cl::cat(pccCategory), cl::desc("Where the devices run"),
    cl::init(BackendOption::Auto),
    cl::values(
        clEnumValN(BackendOption::Auto, "auto",
                   "cuda where a CUDA driver and a GPU are present, else cpu"),
        clEnumValN(BackendOption::Cpu, "cpu",
                   "the host's cores (devices beyond them as fibers)"),
        clEnumValN(BackendOption::Cuda, "cuda",
                   "one GPU per device (several with --oversubscribe)"),
        clEnumValN(BackendOption::CudaSim, "cuda-sim",
                   "the cuda backend on a simulated GPU that runs on the CPU "
                   "(PCC_SIM_GPUS GPUs, default one per device)")));

cl::opt<std::string> outputPath("o", cl::cat(pccCategory),
                                cl::desc("pcc compile: the file to write "
                                         "('-' for standard output)"),
                                cl::value_desc("OUT"));

cl::opt<EmitKind> emitKind(
    "emit", cl::cat(pccCategory), cl::desc("pcc compile: what to write"),
    cl::init(EmitKind::Executable),
    cl::values(
        clEnumValN(EmitKind::Executable, "exe",
                   "a standalone executable (default)"),
        clEnumValN(EmitKind::MLIR, "mlir",
                   "the lowered program (LLVM dialect, gpu.binary kernels)"),
        clEnumValN(EmitKind::LLVM, "llvm", "the host code as LLVM IR"),
        clEnumValN(EmitKind::PTX, "ptx", "the kernels as PTX (cuda)"),
        clEnumValN(EmitKind::Object, "obj", "the host object file")));

cl::opt<std::string>
    targetCPU("mcpu", cl::cat(pccCategory),
              cl::desc("pcc compile: the host CPU the executable is for "
                       "('native' for this machine's)"),
              cl::value_desc("CPU"), cl::init(kDefaultTargetCPU.str()));

cl::opt<unsigned> codegenThreads(
    "codegen-threads", cl::cat(pccCategory),
    cl::desc("pcc run: the most threads that generate a large program's "
             "code (default 0: one per CPU the process may use)"),
    cl::value_desc("N"), cl::init(0));

/// The run options (pcc/Host/RunOptions.h), which compiled executables take
/// too: registerRunOptions makes an llvm::cl option of each, and
/// applyRunOptions gives what they collected to pcc::host::setRunOption.
pcc::host::RunOptions runOptions;
std::vector<std::unique_ptr<cl::opt<std::string>>> runOptionValues;
std::vector<std::unique_ptr<cl::opt<bool>>> runOptionFlags;

void registerRunOptions() {
  for (const pcc::host::RunOptionSpec &spec : pcc::host::kRunOptions) {
    if (spec.valueName)
      runOptionValues.push_back(std::make_unique<cl::opt<std::string>>(
          llvm::StringRef(spec.name), cl::cat(pccCategory), cl::desc(spec.help),
          cl::value_desc(spec.valueName)));
    else
      runOptionFlags.push_back(std::make_unique<cl::opt<bool>>(
          llvm::StringRef(spec.name), cl::cat(pccCategory),
          cl::desc(spec.help)));
  }
}

bool applyRunOptions() {
  std::string error;
  for (const auto &option : runOptionValues)
    if (option->getNumOccurrences() &&
        !pcc::host::setRunOption(runOptions, option->ArgStr.str(),
                                 option->getValue().c_str(), error)) {
      reportError(error);
      return false;
    }
  for (const auto &option : runOptionFlags)
    if (option->getValue())
      pcc::host::setRunOption(runOptions, option->ArgStr.str(), nullptr, error);
  return true;
}

/// The largest program pcc reads from something other than a regular file
/// (a pipe, a device): such input may never end (/dev/zero).
constexpr uint64_t kMaxStreamedProgram = uint64_t(256) << 20;

/// The program's text; errors are reported. A regular file is mapped
/// whole; anything else is read up to kMaxStreamedProgram bytes.
std::unique_ptr<llvm::MemoryBuffer> readProgram(llvm::StringRef path) {
  std::string message;
  llvm::sys::fs::file_status status;
  if (path != "-" && !llvm::sys::fs::status(path, status) &&
      status.type() != llvm::sys::fs::file_type::regular_file &&
      status.type() != llvm::sys::fs::file_type::directory_file) {
    llvm::Expected<llvm::sys::fs::file_t> file =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!file) {
      reportError(path + ": " + llvm::toString(file.takeError()));
      return nullptr;
    }
    std::string text;
    char chunk[1 << 16];
    std::string failure;
    for (;;) {
      llvm::Expected<size_t> n = llvm::sys::fs::readNativeFile(
          *file, llvm::MutableArrayRef<char>(chunk, sizeof chunk));
      if (!n) {
        failure = llvm::toString(n.takeError());
        break;
      }
      if (*n == 0)
        break;
      text.append(chunk, *n);
      if (text.size() > kMaxStreamedProgram) {
        failure = "the program is larger than 256 MiB (read from something "
                  "other than a regular file, which may never end)";
        break;
      }
    }
    llvm::sys::fs::closeFile(*file);
    if (!failure.empty()) {
      reportError(path + ": " + failure);
      return nullptr;
    }
    return llvm::MemoryBuffer::getMemBufferCopy(text, path);
  }
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &message);
  if (!file)
    reportError(message);
  return file;
}

/// Reports phase times on standard error: each compile phase and each run
/// for --verbose, the total compile time and every run for --repeat.
class PhaseTimer {
public:
  /// Ends the compile phase `name`.
  void endCompilePhase(llvm::StringRef name) {
    double seconds = lap();
    compileSeconds += seconds;
    if (runOptions.verbose)
      print(name, seconds);
  }

  /// Ends compilation; the next phase is the first run.
  void endCompilation() {
    if (timeRuns)
      print("compile", compileSeconds);
    lap();
  }

  /// Reports the runs' times (pcc::host::runRepeatedly).
  void reportRuns(const std::vector<double> &times) {
    if (timeRuns)
      pcc::host::printRunTimes(times);
    else if (runOptions.verbose)
      print("run", times.front());
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
  bool timeRuns = runOptions.timeRuns;
  double compileSeconds = 0;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

} // namespace

//===----------------------------------------------------------------------===//
// Phases
//===----------------------------------------------------------------------===//

/// What a crash of upstream code on unusual input becomes: one line, even
/// when tearing down what the crash left half-built crashes again.
static void reportCrash() {
  static bool reported = false;
  if (std::exchange(reported, true))
    return;
  llvm::outs().flush();
  reportError("internal error: pcc crashed while compiling or running this "
              "program (a bug in pcc or upstream MLIR; please report it with "
              "the input)");
}

/// Runs a compile phase on a thread with pcc::kCompilerStackSize of stack
/// (deeply nested programs), under crash recovery; waits for it.
static LogicalResult
onCompilerStack(llvm::function_ref<LogicalResult()> phase) {
  LogicalResult result = failure();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafelyOnThread([&] { result = phase(); },
                                  pcc::kCompilerStackSize)) {
    reportCrash();
    return failure();
  }
  return result;
}

static const char *kUsage = "usage: pcc run PROGRAM.mlir [ARG.npy ...] | "
                            "pcc compile PROGRAM.mlir -o OUT";

/// Picks the backend --backend asks for. `run` needs a usable GPU for cuda;
/// `compile` does not (executables run elsewhere).
static FailureOr<Backend> resolveBackend(bool willRun) {
  if (backendOption == BackendOption::Cpu)
    return Backend::Cpu;
  if (backendOption == BackendOption::CudaSim)
    return Backend::CudaSim;
  if (backendOption == BackendOption::Cuda && !willRun)
    return Backend::Cuda;
  char message[512];
  int64_t gpus = pcc_cuda_probe(message, sizeof(message));
  if (backendOption == BackendOption::Cuda) {
    if (gpus == 0) {
      reportError(llvm::Twine("--backend=cuda: ") + message);
      return failure();
    }
    return Backend::Cuda;
  }
  if (runOptions.verbose)
    llvm::errs() << "pcc: backend: auto: " << message
                 << (gpus == 0 ? "; using cpu\n" : "; using cuda\n");
  return gpus == 0 ? Backend::Cpu : Backend::Cuda;
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

static DialectRegistry getRegistry() {
  DialectRegistry registry;
  pcc::registerDialects(registry);
  return registry;
}

namespace {
/// A program being compiled: its MLIR context, source and diagnostics.
class Program {
public:
  Program()
      // Single-threaded, so that a crash in upstream code happens on the
      // thread whose crash recovery (onCompilerStack) catches it.
      : context(getRegistry(), MLIRContext::Threading::DISABLED),
        diagnostics(sourceMgr, &context,
                    pcc_process_rank() == 0 ? llvm::errs() : llvm::nulls()) {
    configureDiagnostics(context);
  }

  /// Parses and verifies the program and finds the entry's signature;
  /// errors are reported.
  LogicalResult parse(llvm::StringRef path, Backend backend) {
    std::unique_ptr<llvm::MemoryBuffer> file = readProgram(path);
    if (!file)
      return failure();
    unsigned buffer =
        sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    if (failed(checkNesting(sourceMgr, buffer, &context)))
      return failure();
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return failure();
    FailureOr<EntrySignature> entry = getEntrySignature(*module, entryName);
    if (failed(entry))
      return failure();
    signature = std::move(*entry);
    devices = countDevices(*module).value_or(0);
    processSplit = getProcessSplit(*module);
    if (failed(checkProcessSplit(*module, pcc_process_count())))
      return failure();
    if (runOptions.verbose) {
      if (devices)
        llvm::errs() << "pcc: devices: " << devices
                     << (backend == Backend::Cpu    ? " (host threads)\n"
                         : backend == Backend::Cuda ? " (GPU streams)\n"
                                                    : " (simulated GPU "
                                                      "streams)\n");
      else
        llvm::errs() << "pcc: devices: none (the program has no spmd.pmap)\n";
    }
    return success();
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> module;
  EntrySignature signature;
  int64_t devices = 0;
  /// See getProcessSplit.
  int64_t processSplit = 0;
};

/// What `pcc run` compiles: the JIT-compiled program and its arguments.
struct CompiledEntry {
  EntrySignature signature;
  std::vector<pcc::arrayio::Array> arguments;
  CompiledProgram program;
};
} // namespace

/// Prints each result on standard output and saves them if asked to.
static LogicalResult
emitResults(const std::vector<pcc::arrayio::Array> &results) {
  // Every process of an MPI job holds the same results.
  if (pcc_process_rank() != 0)
    return success();
  for (const pcc::arrayio::Array &result : results)
    llvm::outs() << pcc::arrayio::formatArray(result) << "\n";
  llvm::outs().flush();
  // Results that did not reach standard output (a full disk, a closed
  // descriptor) are a failed run, not a silent one (nor LLVM's fatal
  // error when the stream is destroyed with its error unchecked).
  if (llvm::outs().has_error()) {
    std::string reason = llvm::outs().error().message();
    llvm::outs().clear_error();
    reportError("cannot write the results to standard output: " + reason);
    return failure();
  }
  std::string error;
  if (!runOptions.saveResults.empty() &&
      !pcc::host::saveResults(runOptions.saveResults, results, error)) {
    reportError(error);
    return failure();
  }
  return success();
}

/// Readies the cuda platform, on the simulated GPU for cuda-sim, for a
/// program on `devices` devices.
static LogicalResult initCuda(int64_t devices, Backend backend) {
  char message[512] = "";
  if (backend == Backend::CudaSim &&
      pcc_cuda_simulate(devices, message, sizeof(message)) != 0) {
    reportError(llvm::Twine("--backend=cuda-sim: ") + message);
    return failure();
  }
  if (pcc_cuda_init(devices, runOptions.oversubscribe, message,
                    sizeof(message)) == 0)
    return success();
  reportError("--backend=" + getBackendName(backend) + ": " + message);
  return failure();
}

/// Parses, checks, lowers and JIT-compiles the program, and reads its
/// arguments; errors are reported.
static LogicalResult compileForRun(llvm::StringRef programPath,
                                   llvm::ArrayRef<std::string> argumentFiles,
                                   Backend backend, PhaseTimer &timer,
                                   CompiledEntry &compiled) {
  Program program;
  if (failed(
          onCompilerStack([&] { return program.parse(programPath, backend); })))
    return failure();
  compiled.signature = program.signature;
  std::string error;
  if (!pcc::host::loadArguments(compiled.signature, argumentFiles,
                                compiled.arguments, error)) {
    reportError(error);
    return failure();
  }
  if (usesCudaPlatform(backend) && failed(initCuda(program.devices, backend)))
    return failure();
  timer.endCompilePhase("parse");

  CudaOptions cuda;
  // The limit is on host memory, which cuda programs' buffers are not.
  int64_t memoryLimit = backend == Backend::Cpu ? pcc_memory_limit() : 0;
  return onCompilerStack([&]() -> LogicalResult {
    if (failed(lowerProgram(*program.module, entryName, backend, cuda,
                            memoryLimit)))
      return failure();
    timer.endCompilePhase("passes");
    auto jitted = jitCompile(*program.module, codegenThreads);
    if (!jitted) {
      reportError("cannot JIT-compile the program: " +
                  llvm::toString(jitted.takeError()));
      return failure();
    }
    compiled.program = std::move(*jitted);
    timer.endCompilePhase("codegen/JIT");
    if (runOptions.verbose)
      llvm::errs() << "pcc: codegen threads: "
                   << compiled.program.codegenThreads << "\n";
    return success();
  });
}

/// Runs the entry --repeat times (through --rotate copies of its buffers) and
/// emits the results of the last run.
static LogicalResult execute(CompiledEntry &compiled, Backend backend,
                             PhaseTimer &timer) {
  pcc::host::BufferAllocator allocator = pcc::host::hostAllocator();
  if (usesCudaPlatform(backend))
    allocator = pcc::host::gpuAllocator();
  std::string error;
  // More copies than runs would never be used.
  unsigned long copies = std::min(runOptions.rotate, runOptions.repeat);
  if (!pcc::host::checkMemoryLimit(compiled.signature, pcc_memory_limit(),
                                   copies, error)) {
    reportError(error);
    return failure();
  }
  auto calls = pcc::host::createEntryCalls(
      compiled.signature, compiled.arguments, allocator, copies, error);
  if (calls.empty()) {
    reportError(error);
    return failure();
  }
  timer.endCompilation();
  std::vector<double> times = pcc::host::runRepeatedly(
      compiled.program.entry, calls, runOptions.repeat);
  timer.reportRuns(times);
  return emitResults(pcc::host::takeResults(calls, runOptions.repeat));
}

/// `pcc run`: everything after the command line.
static LogicalResult runProgram(llvm::StringRef programPath,
                                llvm::ArrayRef<std::string> argumentFiles) {
  FailureOr<Backend> backend = resolveBackend(/*willRun=*/true);
  if (failed(backend))
    return failure();
  if (*backend == Backend::Cpu && runOptions.oversubscribe) {
    reportError("--oversubscribe applies to the cuda backend only");
    return failure();
  }
  if (runOptions.verbose)
    llvm::errs() << "pcc: backend: " << getBackendName(*backend) << "\n";
  PhaseTimer timer;
  CompiledEntry compiled;
  if (failed(
          compileForRun(programPath, argumentFiles, *backend, timer, compiled)))
    return failure();
  return execute(compiled, *backend, timer);
}

/// Opens `path` for writing ('-' is standard output); errors are reported.
static std::unique_ptr<llvm::ToolOutputFile> openOutput(llvm::StringRef path) {
  std::string message;
  auto file = openOutputFile(path, &message);
  if (!file)
    reportError(message);
  return file;
}

/// `pcc compile`: lowers the program and writes what --emit asks for.
static LogicalResult compileProgram(llvm::StringRef programPath) {
  if (outputPath.empty()) {
    reportError("pcc compile needs an output file: -o OUT");
    return failure();
  }
  if (programPath != "-" &&
      llvm::sys::fs::equivalent(programPath, outputPath)) {
    reportError("-o " + outputPath +
                " is the program itself: pcc compile "
                "would overwrite it; choose another output file");
    return failure();
  }
  FailureOr<Backend> backend = resolveBackend(/*willRun=*/false);
  if (failed(backend))
    return failure();
  if (emitKind == EmitKind::PTX && *backend != Backend::Cuda) {
    reportError("--emit=ptx writes GPU kernels: use it with --backend=cuda");
    return failure();
  }
  if (runOptions.verbose)
    llvm::errs() << "pcc: backend: " << getBackendName(*backend) << "\n";
  CudaOptions cuda;
  cuda.kernels =
      emitKind == EmitKind::PTX ? KernelFormat::PTX : KernelFormat::Fatbin;
  // Parsed, lowered and translated on the compiler's stack; the object and
  // the link (a child process) on this thread.
  Program program;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  if (failed(onCompilerStack([&]() -> LogicalResult {
        if (failed(program.parse(programPath, *backend)) ||
            failed(lowerProgram(*program.module, entryName, *backend, cuda)))
          return failure();
        if (emitKind == EmitKind::MLIR || emitKind == EmitKind::PTX)
          return success();
        auto translated = translateForExecutable(
            *program.module, llvmContext, program.signature, *backend,
            program.devices, program.processSplit, targetCPU);
        if (!translated) {
          reportError(llvm::toString(translated.takeError()));
          return failure();
        }
        llvmModule = std::move(*translated);
        return success();
      })))
    return failure();

  if (emitKind == EmitKind::MLIR || emitKind == EmitKind::PTX) {
    auto output = openOutput(outputPath);
    if (!output)
      return failure();
    if (emitKind == EmitKind::MLIR) {
      program.module->print(output->os());
    } else if (llvm::Error error = writePTX(*program.module, output->os())) {
      reportError(llvm::toString(std::move(error)));
      return failure();
    }
    output->keep();
    return success();
  }
  if (emitKind == EmitKind::LLVM) {
    auto output = openOutput(outputPath);
    if (!output)
      return failure();
    llvmModule->print(output->os(), nullptr);
    output->keep();
    return success();
  }
  if (emitKind == EmitKind::Object) {
    if (llvm::Error error = writeObject(*llvmModule, outputPath, targetCPU)) {
      reportError(llvm::toString(std::move(error)));
      return failure();
    }
    return success();
  }
  if (outputPath == "-") {
    reportError("an executable cannot go to standard output: name a file "
                "with -o, or ask for --emit=obj, --emit=llvm or --emit=mlir");
    return failure();
  }
  if (llvm::Error error =
          writeExecutable(*llvmModule, *backend, outputPath, targetCPU)) {
    reportError(llvm::toString(std::move(error)));
    return failure();
  }
  return success();
}

/// Checks the command line and runs the command it names.
static LogicalResult runCommand() {
  if (positionals.empty()) {
    reportError(llvm::Twine("no command (") + kUsage + ")");
    return failure();
  }
  llvm::StringRef command = positionals.front();
  if (command != "run" && command != "compile") {
    reportError("unknown command '" + command + "' (" + kUsage + ")");
    return failure();
  }
  if (positionals.size() < 2) {
    reportError(llvm::Twine("no program (") + kUsage + ")");
    return failure();
  }
  if (!applyRunOptions())
    return failure();
  if (command == "compile") {
    if (positionals.size() > 2) {
      reportError("pcc compile takes one program; its executable takes the "
                  "arguments (" +
                  positionals[2] + ")");
      return failure();
    }
    return compileProgram(positionals[1]);
  }
  // Under mpirun every process runs the program; process 0 alone reports.
  char message[512];
  if (pcc_processes_init(message, sizeof(message)) != 0) {
    reportError(llvm::Twine("mpirun: ") + message);
    return failure();
  }
  if (pcc_process_rank() != 0)
    runOptions.verbose = runOptions.timeRuns = false;
  if (runOptions.memoryLimit)
    pcc_set_memory_limit(runOptions.memoryLimit);
  if (!runOptions.trace.empty() || runOptions.profile)
    pcc_set_trace(runOptions.trace.c_str(), runOptions.profile);
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
  // Ctrl-C ends pcc at once, removing what it was writing: LLVM's handler
  // (registered later, when an output file is opened) removes its output
  // files and hands the signal on to this one.
  pcc::host::installInterruptHandlers(stopLinking);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  // Every pass of the pipelines by name, for --mlir-print-ir-after and the
  // like.
  pcc::registerPipelines();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerRunOptions();
  hideUnrelatedOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "pcc: compile and run SPMD tensor programs\n\n"
      "  pcc run PROGRAM.mlir [ARG.npy ...] [options]\n"
      "  pcc compile PROGRAM.mlir -o OUT [--emit=exe|mlir|llvm|ptx|obj] "
      "[options]\n");

  // Some upstream code crashes on unusual input; users get a one-line error
  // and exit status 1 rather than a signal.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  LogicalResult result = failure();
  if (!recovery.RunSafely([&] { result = runCommand(); })) {
    reportCrash();
    return 1;
  }
  return succeeded(result) ? 0 : 1;
}
