//===- Driver.h - pcc driver: from source to a callable entry ---*- C++ -*-===//
//
// The MLIR half of the driver: the entry function's boundary signature, the
// backends' lowering pipelines, the JIT (`pcc run`) and the object files and
// executables of `pcc compile`. Located problems are reported through the
// context's diagnostic handler; the rest come back as llvm::Error.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DRIVER_DRIVER_H
#define PCC_DRIVER_DRIVER_H

#include "pcc/Host/Host.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>

namespace llvm {
class LLVMContext;
class Module;
class SourceMgr;
class SubtargetFeatures;
class TargetMachine;
class raw_ostream;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace pcc::driver {

using host::BoundaryType;
using host::EntrySignature;

/// Prints `pcc: error: MESSAGE` on standard error: the form of every error
/// that has no location in the program.
void reportError(const llvm::Twine &message);

/// How deeply a program's text may nest brackets, types and regions. The
/// parser and many passes recurse once per level; the bound keeps their
/// stack (pcc::kCompilerStackSize, hundreds of times what 1000 levels take
/// at about 2 KiB each) from running out. Clang's default bracket depth is
/// 256.
constexpr unsigned kMaxNesting = 1000;

/// Fails, after a located error, where the text of `buffer` in `sourceMgr`
/// nests deeper than kMaxNesting.
mlir::LogicalResult checkNesting(llvm::SourceMgr &sourceMgr, unsigned buffer,
                                 mlir::MLIRContext *context);

/// Where a program's devices run: the host's cores, GPUs, or the simulated
/// GPU (the cuda backend with its kernels compiled for the host).
enum class Backend { Cpu, Cuda, CudaSim };

/// Whether the backend runs on the cuda platform (real or simulated GPUs).
inline bool usesCudaPlatform(Backend backend) {
  return backend != Backend::Cpu;
}

/// The backend's name, as --backend spells it.
llvm::StringRef getBackendName(Backend backend);

/// The boundary signature of the entry function `name`, or failure after
/// reporting why the function cannot be called from the driver.
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::ModuleOp module,
                                                  llvm::StringRef name);

/// The number of devices the program runs on: the largest grid of any
/// outermost spmd.pmap nest, or nullopt if it has no spmd.pmap.
std::optional<int64_t> countDevices(mlir::ModuleOp module);

/// Checks that the devices of every pmap nest split evenly over `processes`
/// processes (mpirun -np P), reporting the first nest that does not.
mlir::LogicalResult checkProcessSplit(mlir::ModuleOp module, int64_t processes);

/// The greatest common divisor of the device counts of the program's pmap
/// nests (0 without pmaps): the numbers of processes it may run on are its
/// divisors.
int64_t getProcessSplit(mlir::ModuleOp module);

/// How the cuda backend's kernels are packaged.
enum class KernelFormat { Fatbin, PTX };

/// Choices of the cuda pipeline.
struct CudaOptions {
  KernelFormat kernels = KernelFormat::Fatbin;
};

/// Lowers `module` in place with the backend's pipeline, to the LLVM dialect
/// (with `gpu.binary` kernels for cuda). A `memoryLimit` above 0 rejects a
/// program that uses a value of more bytes.
mlir::LogicalResult lowerProgram(mlir::ModuleOp module, llvm::StringRef entry,
                                 Backend backend, const CudaOptions &cuda = {},
                                 int64_t memoryLimit = 0);

/// A JIT-compiled program, linked in memory: its code lives as long as
/// this does.
class CompiledProgram {
public:
  CompiledProgram();
  CompiledProgram(CompiledProgram &&other) noexcept;
  CompiledProgram &operator=(CompiledProgram &&other) noexcept;
  /// Runs the program's destructors (the cuda pipeline unloads its kernels
  /// in them), then frees its code.
  ~CompiledProgram();

  /// `_pcc_program_entry` (see addPackedEntry): takes a pointer to each
  /// descriptor pointer.
  void (*entry)(void **) = nullptr;
  /// How many threads generated its code, one part of the module each.
  unsigned codegenThreads = 0;

private:
  friend llvm::Expected<CompiledProgram> jitCompile(mlir::ModuleOp module,
                                                    unsigned threads);
  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*destructors)() = nullptr;
};

/// JIT-compiles a module in the LLVM dialect at -O2 for this machine's CPU;
/// calls to the pcc runtime resolve to the driver's own copy of it. The code
/// of a large module is generated on up to `threads` threads (0: one per
/// CPU the process may use).
llvm::Expected<CompiledProgram> jitCompile(mlir::ModuleOp module,
                                           unsigned threads = 0);

/// Adds `void _pcc_program_entry(void **args)`, which calls
/// `_mlir_ciface__pcc_entry` with the descriptor pointer each args[i]
/// points to: how both the JIT and an executable's main() call a program.
llvm::Error addPackedEntry(llvm::Module &module);

/// The host object file of `module`, for `machine`, in memory.
llvm::Expected<llvm::SmallVector<char, 0>>
emitObject(llvm::Module &module, llvm::TargetMachine &machine);

/// Runs LLVM's -O2 pipeline on the host code of a lowered program for
/// `machine`'s CPU, telling the optimizer first what it cannot see of the
/// runtime (its allocator returns fresh memory). Both the JIT and `pcc
/// compile` optimize with it.
llvm::Error optimizeHostCode(llvm::Module &module,
                             llvm::TargetMachine &machine);

/// Turns off in `features` what would make a program's results depend on
/// the CPU it runs on: the bfloat16 conversion instructions (AVX512-BF16,
/// AVX-NE-CONVERT) flush subnormals to zero, where pcc's conversions
/// elsewhere (__truncsfbf2, the GPU's) keep them.
void excludeCpuDependentFeatures(llvm::SubtargetFeatures &features);

/// Writes the kernels of a module lowered with KernelFormat::PTX as text.
llvm::Error writePTX(mlir::ModuleOp module, llvm::raw_ostream &os);

/// The CPU that `pcc compile` generates code for unless --mcpu says
/// otherwise: generic, since executables are meant to travel to other
/// machines. "native" stands for this machine's.
inline constexpr llvm::StringLiteral kDefaultTargetCPU = "x86-64-v2";

/// The LLVM IR of a lowered module as `pcc compile` builds it, optimized at
/// -O2 for `targetCPU`: the program plus what an executable's main() needs
/// (lib/Host/ProgramMain.cpp): `_pcc_program_entry`, a packed form of the
/// entry, and the signature, backend and device count as constants.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateForExecutable(mlir::ModuleOp module, llvm::LLVMContext &context,
                       const EntrySignature &signature, Backend backend,
                       int64_t devices, int64_t processSplit,
                       llvm::StringRef targetCPU);

/// Writes `module` as a host object file for `targetCPU` ('-': standard
/// output). An interrupt removes what it wrote so far.
llvm::Error writeObject(llvm::Module &module, llvm::StringRef path,
                        llvm::StringRef targetCPU);

/// Writes `module` as an executable that needs no LLVM or MLIR: its object
/// linked with the runtime libraries next to the running pcc
/// (`<bin>/../lib`), the backend's part of the runtime only, by the system's
/// C++ compiler driver. `output` is replaced only once the link has
/// succeeded; an interrupt stops the linker and leaves no temporary file.
llvm::Error writeExecutable(llvm::Module &module, Backend backend,
                            llvm::StringRef output, llvm::StringRef targetCPU);

/// Stops a linker that writeExecutable runs and removes its partial output
/// (async-signal-safe): what pcc's interrupt handler runs first.
void stopLinking();

} // namespace pcc::driver

#endif // PCC_DRIVER_DRIVER_H
