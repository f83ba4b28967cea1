//===- Executable.cpp - pcc compile: objects and executables -------------===//
//
// Implements the back half of pcc/Driver/Driver.h: a lowered program becomes
// LLVM IR with the few symbols a standalone main() needs
// (lib/Host/ProgramMain.cpp), a host object file, and, linked with pcc's
// runtime libraries, an executable that depends on neither LLVM nor MLIR.
// Objects are built for a generic x86-64-v2 CPU unless --mcpu says otherwise,
// since executables are meant to travel to other machines (the GPU machines
// among them).
//
//===----------------------------------------------------------------------===//

#include "pcc/Driver/Driver.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

using namespace mlir;
using namespace pcc::driver;

llvm::Error pcc::driver::writePTX(ModuleOp module, llvm::raw_ostream &os) {
  bool found = false;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects()) {
      os << "// gpu.binary @" << binary.getSymName() << "\n"
         << cast<gpu::ObjectAttr>(object).getObject().getValue() << "\n";
      found = true;
    }
  });
  if (!found)
    return llvm::createStringError(
        "the program has no GPU kernels: its pmap bodies hold only "
        "collectives and host code, so there is no PTX to write");
  return llvm::Error::success();
}

llvm::Error pcc::driver::addPackedEntry(llvm::Module &module) {
  llvm::Function *entry = module.getFunction("_mlir_ciface__pcc_entry");
  if (!entry)
    return llvm::createStringError("the lowered program has no "
                                   "_mlir_ciface__pcc_entry");
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr}, false);
  auto *packed = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                        "_pcc_program_entry", module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", packed));
  llvm::SmallVector<llvm::Value *> arguments;
  for (unsigned index = 0; index < entry->arg_size(); ++index) {
    llvm::Value *slot =
        builder.CreateConstGEP1_64(ptr, packed->getArg(0), index);
    llvm::Value *descriptorPointer = builder.CreateLoad(ptr, slot);
    arguments.push_back(builder.CreateLoad(ptr, descriptorPointer));
  }
  builder.CreateCall(entry, arguments);
  builder.CreateRetVoid();
  return llvm::Error::success();
}

/// Makes everything the program defines private to its object but the
/// `_pcc_program_*` symbols main() uses: a program function named like a C
/// library one (`@main`, say) must not be mistaken for it by the linker.
static void internalizeProgram(llvm::Module &module) {
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || value.getName().starts_with("llvm.") ||
        value.getName().starts_with("_pcc_program_"))
      continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    // C's entry point keeps its special treatment even when internal.
    if (value.getName() == "main")
      value.setName("_pcc_program_function_main");
  }
}

static void addConstant(llvm::Module &module, llvm::StringRef name,
                        llvm::Constant *value) {
  new llvm::GlobalVariable(module, value->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, value, name);
}

void pcc::driver::excludeCpuDependentFeatures(
    llvm::SubtargetFeatures &features) {
  for (const char *name : {"avx512bf16", "avxneconvert"})
    features.AddFeature(name, /*enable=*/false);
}

/// The host target machine of executables, for `targetCPU` (--mcpu).
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef targetCPU) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no code generator for " + triple.str() +
                                   ": " + error);
  // This machine's CPU comes with the features it has: a virtual machine
  // may lack some that its CPU's name implies (AVX-512 turned off), as the
  // JIT knows.
  std::string cpu = targetCPU.str();
  llvm::SubtargetFeatures features;
  if (targetCPU == "native") {
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      features.AddFeature(name, enabled);
  }
  excludeCpuDependentFeatures(features);
  // Checked first: LLVM would warn at every use of an unknown CPU and
  // generate code for a generic one.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(cpu))
    return llvm::createStringError(
        "--mcpu=" + targetCPU + ": not a CPU that LLVM knows for " +
        triple.str() +
        " (use 'native' for this machine's, or a name such as "
        "x86-64-v3 or znver4)");
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features.getString(), llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!machine)
    return llvm::createStringError("cannot create a code generator for " +
                                   triple.str() + " and CPU '" + cpu + "'");
  return machine;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
pcc::driver::translateForExecutable(ModuleOp module, llvm::LLVMContext &context,
                                    const EntrySignature &signature,
                                    Backend backend, int64_t devices,
                                    int64_t processSplit,
                                    llvm::StringRef targetCPU) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "pcc-program");
  if (!llvmModule)
    return llvm::createStringError("cannot translate the program to LLVM IR");
  if (llvm::Error error = addPackedEntry(*llvmModule))
    return std::move(error);
  internalizeProgram(*llvmModule);
  addConstant(*llvmModule, "_pcc_program_signature",
              llvm::ConstantDataArray::getString(
                  context, host::encodeSignature(signature)));
  addConstant(
      *llvmModule, "_pcc_program_backend",
      llvm::ConstantDataArray::getString(context, getBackendName(backend)));
  addConstant(*llvmModule, "_pcc_program_devices",
              llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), devices));
  addConstant(
      *llvmModule, "_pcc_program_process_split",
      llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), processSplit));

  auto machine = createTargetMachine(targetCPU);
  if (!machine)
    return machine.takeError();
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());
  // As clang does: each function says what it is for, so that --emit=llvm
  // output compiles elsewhere for the same CPU.
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", (*machine)->getTargetCPU());
    if (!(*machine)->getTargetFeatureString().empty())
      function.addFnAttr("target-features",
                         (*machine)->getTargetFeatureString());
  }
  if (llvm::Error error = optimizeHostCode(*llvmModule, **machine))
    return std::move(error);
  return llvmModule;
}

llvm::Error pcc::driver::optimizeHostCode(llvm::Module &module,
                                          llvm::TargetMachine &machine) {
  // A buffer from the runtime's allocator is fresh memory. Knowing it, the
  // vectorizer needs no run-time check that a result overlaps an operand,
  // nor a scalar copy of each loop for when it does.
  if (llvm::Function *allocator =
          module.getFunction("_mlir_memref_to_llvm_aligned_alloc"))
    allocator->addRetAttr(llvm::Attribute::NoAlias);
  return makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                   &machine)(&module);
}

llvm::Expected<llvm::SmallVector<char, 0>>
pcc::driver::emitObject(llvm::Module &module, llvm::TargetMachine &machine) {
  // Emitted into memory first: the code generator seeks back in what it
  // writes, which a pipe ('-o -') cannot do.
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream buffer(object);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, buffer, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the code generator cannot emit objects");
  passes.run(module);
  return object;
}

/// The host object file of `module` for `targetCPU`, in memory.
static llvm::Expected<llvm::SmallVector<char, 0>>
emitObjectFor(llvm::Module &module, llvm::StringRef targetCPU) {
  auto machine = createTargetMachine(targetCPU);
  if (!machine)
    return machine.takeError();
  return emitObject(module, **machine);
}

/// Writes `bytes` into the open `os` for `path`.
static llvm::Error writeBytes(llvm::raw_fd_ostream &os, llvm::StringRef path,
                              llvm::ArrayRef<char> bytes) {
  os.write(bytes.data(), bytes.size());
  os.flush();
  if (os.has_error())
    return llvm::createStringError("cannot write '" + path +
                                   "': " + os.error().message());
  return llvm::Error::success();
}

llvm::Error pcc::driver::writeObject(llvm::Module &module, llvm::StringRef path,
                                     llvm::StringRef targetCPU) {
  auto object = emitObjectFor(module, targetCPU);
  if (!object)
    return object.takeError();
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  if (llvm::Error error = writeBytes(file.os(), path, *object))
    return error;
  file.keep();
  return llvm::Error::success();
}

namespace {
/// A temporary file that an interrupt removes too.
class TemporaryFile {
public:
  llvm::Error create(llvm::StringRef prefix, llvm::StringRef suffix) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile(prefix, suffix, path))
      return llvm::createStringError("cannot create a temporary file: " +
                                     ec.message());
    llvm::sys::RemoveFileOnSignal(path);
    return llvm::Error::success();
  }
  ~TemporaryFile() {
    if (path.empty())
      return;
    llvm::sys::fs::remove(path);
    llvm::sys::DontRemoveFileOnSignal(path);
  }
  llvm::SmallString<128> path;
};

/// The linker that writeExecutable runs and the file it writes, for
/// stopLinking; whoever takes the file (stopLinking or writeExecutable)
/// owns it from then on.
std::atomic<pid_t> linkerPid{0};
std::atomic<const char *> linkerOutput{nullptr};
} // namespace

void pcc::driver::stopLinking() {
  if (pid_t pid = linkerPid.exchange(0)) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  if (const char *path = linkerOutput.exchange(nullptr))
    unlink(path);
}

/// The directory of pcc's libraries: `<directory of pcc>/../lib`.
static std::string getLibraryDirectory() {
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(dir, "lib");
  return std::string(dir);
}

/// Links `object` with the runtime into `output`, for the executable that
/// messages call `name` (see writeExecutable).
static llvm::Error linkExecutable(llvm::StringRef object, Backend backend,
                                  llvm::StringRef output,
                                  llvm::StringRef name) {
  llvm::ErrorOr<std::string> linker =
      std::make_error_code(std::errc::no_such_file_or_directory);
#ifdef PCC_SANITIZER_LINKER
  // A sanitizer build's runtime must be linked by the compiler that built
  // it, whose sanitizer runtimes it was compiled against.
  linker = llvm::sys::findProgramByName(PCC_SANITIZER_LINKER);
#else
  for (const char *name : {"c++", "g++", "clang++"})
    if ((linker = llvm::sys::findProgramByName(name)))
      break;
#endif
  if (!linker)
    return llvm::createStringError(
        "pcc compile links with the system's C++ compiler, but none of c++, "
        "g++ or clang++ is on PATH (install g++, or use --emit=obj)");

  std::string libraries = getLibraryDirectory();
  llvm::SmallVector<std::string> arguments = {*linker, "-o", output.str(),
                                              object.str()};
  // Order matters for static archives: users before what they use. Only
  // the backend's part of the runtime: a cpu executable holds no CUDA code.
  const char *backendRuntime =
      usesCudaPlatform(backend) ? "PCCRuntimeCUDA" : "PCCRuntimeCPU";
  for (const char *name : {"PCCProgramMain", "PCCHost", "PCCArrayIO",
                           backendRuntime, "PCCRuntime"}) {
    llvm::SmallString<256> archive(libraries);
    llvm::sys::path::append(archive, llvm::Twine("lib") + name + ".a");
    if (!llvm::sys::fs::exists(archive))
      return llvm::createStringError("pcc's runtime library " + archive +
                                     " is missing; rebuild or reinstall pcc");
    arguments.push_back(std::string(archive));
  }
  // main() reaches the cuda platform through weak references, which do not
  // pull it out of its archive: a program that itself calls none of it (no
  // pmap, scalar results) would find it missing.
  if (usesCudaPlatform(backend))
    for (const char *symbol : {"pcc_cuda_init", "pcc_cuda_simulate"})
      arguments.push_back(std::string("-Wl,--undefined=") + symbol);
  // The executable needs only the C library (and libcuda on a GPU machine,
  // which the runtime opens itself).
  for (const char *flag :
       {"-static-libstdc++", "-static-libgcc", "-lpthread", "-ldl", "-lm"})
    arguments.push_back(flag);
#ifdef PCC_LINK_SANITIZERS
  arguments.push_back(PCC_LINK_SANITIZERS);
#endif

  TemporaryFile log;
  if (llvm::Error error = log.create("pcc-link", "log"))
    return error;
  llvm::SmallVector<llvm::StringRef> argv(arguments.begin(), arguments.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(log.path), llvm::StringRef(log.path)};
  std::string message;
  bool failedToStart = false;
  llvm::sys::ProcessInfo process = llvm::sys::ExecuteNoWait(
      *linker, argv, std::nullopt, redirects, 0, &message, &failedToStart);
  int status = -1;
  if (!failedToStart) {
    linkerPid.store(process.Pid);
    status = llvm::sys::Wait(process, std::nullopt, &message).ReturnCode;
    if (linkerPid.exchange(0) == 0)
      for (;;) // Reaped by stopLinking, which ends the process.
        pause();
  }
  std::string linkerMessages;
  if (auto buffer = llvm::MemoryBuffer::getFile(log.path))
    linkerMessages = (*buffer)->getBuffer().rtrim().str();
  if (status != 0)
    return llvm::createStringError(
        "linking " + name + " with " + *linker + " failed" +
        (message.empty() ? "" : ": " + message) +
        (linkerMessages.empty() ? "" : ":\n" + linkerMessages));
  return llvm::Error::success();
}

llvm::Error pcc::driver::writeExecutable(llvm::Module &module, Backend backend,
                                         llvm::StringRef output,
                                         llvm::StringRef targetCPU) {
  auto bytes = emitObjectFor(module, targetCPU);
  if (!bytes)
    return bytes.takeError();
  TemporaryFile object;
  if (llvm::Error error = object.create("pcc-program", "o"))
    return error;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(object.path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return llvm::createStringError("cannot write '" + object.path +
                                     "': " + ec.message());
    if (llvm::Error error = writeBytes(os, object.path, *bytes))
      return error;
  }
  // Linked next to `output` under a temporary name, then renamed: an
  // earlier executable stays intact until the new one is complete. A
  // symbolic link's target is what is replaced, not the link; a name that
  // is not a regular file's (a device such as /dev/null, a FIFO) is never
  // replaced: the executable is linked into a temporary file and copied
  // through it.
  // (A link that leads nowhere is written through, as a device is.)
  llvm::SmallString<256> target(output);
  if (llvm::sys::fs::is_symlink_file(output) &&
      llvm::sys::fs::real_path(output, target))
    target = output;
  llvm::sys::fs::file_status existing;
  bool writeThrough =
      !llvm::sys::fs::status(target, existing, /*Follow=*/false) &&
      existing.type() != llvm::sys::fs::file_type::regular_file;
  int fd;
  llvm::SmallString<256> partial;
  std::error_code created =
      writeThrough ? llvm::sys::fs::createTemporaryFile("pcc-executable", "",
                                                        fd, partial)
                   : llvm::sys::fs::createUniqueFile(target + "-%%%%%%.partial",
                                                     fd, partial);
  if (created)
    return llvm::createStringError("cannot write '" + output +
                                   "': " + created.message());
  close(fd);
  std::string partialPath(partial);
  linkerOutput.store(partialPath.c_str());
  llvm::Error error = linkExecutable(object.path, backend, partialPath, output);
  if (!error && writeThrough) {
    if (std::error_code ec = llvm::sys::fs::copy_file(partialPath, output))
      error = llvm::createStringError("cannot write '" + output +
                                      "': " + ec.message());
  } else if (!error)
    if (std::error_code ec = llvm::sys::fs::rename(partialPath, target))
      error = llvm::createStringError("cannot write '" + output +
                                      "': " + ec.message());
  if (linkerOutput.exchange(nullptr) == nullptr)
    for (;;) // Taken by stopLinking, which ends the process.
      pause();
  if (error || writeThrough)
    llvm::sys::fs::remove(partialPath);
  return error;
}
