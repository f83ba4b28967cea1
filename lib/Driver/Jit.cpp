//===- Jit.cpp - pcc run: the lowered program compiled in memory ---------===//
//
// Implements jitCompile of pcc/Driver/Driver.h. The lowered module becomes
// LLVM IR and is optimized whole, as `pcc compile` does it. Code generation,
// the larger half of the time of a large program, then runs on several
// threads: the module is split into parts, each moved into a context of its
// own (an LLVMContext is not shared between threads) and compiled to an
// object there, as XLA's CPU compiler splits large modules. ORC links the
// objects in memory against the runtime of this process.
//
//===----------------------------------------------------------------------===//

#include "pcc/Driver/Driver.h"

#include "pcc/Runtime/RuntimeABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/MapperJITLinkMemoryManager.h"
#include "llvm/ExecutionEngine/Orc/MemoryMapper.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <thread>
#include <utility>

using namespace mlir;
using namespace pcc::driver;

/// The fewest instructions of host code worth a thread of code generation
/// of their own: each part costs a thread and a trip through bitcode
/// (milliseconds), and code generation takes tens of microseconds per
/// instruction.
constexpr unsigned kInstructionsPerPart = 2000;

/// The names of the functions that run the program's constructors and
/// destructors (see gatherStructors).
constexpr llvm::StringLiteral kConstructors = "_pcc_program_constructors",
                              kDestructors = "_pcc_program_destructors";

/// The runtime's functions that lowered programs call, by name, for the JIT
/// (the driver links the runtime): every one of RuntimeABI.def.
static llvm::orc::SymbolMap
getRuntimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](const std::string &name, auto *function) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                               llvm::JITSymbolFlags::Exported};
  };
#define PCC_RUNTIME_FUNCTION(name, backend) add(#name, &name);
#define PCC_TRANSLATION_FUNCTION(name) add(#name, &name);
#include "pcc/Runtime/RuntimeABI.def"
  return symbols;
}

/// Replaces the module's `llvm.global_ctors` (or `llvm.global_dtors`) with
/// a function `name` that calls them in order of priority (destructors in
/// the reverse order): objects linked in memory run no init sections, so
/// the JIT calls the function itself. The cuda pipeline loads and unloads
/// its kernels in them.
static void gatherStructors(llvm::Module &module, bool destructors,
                            llvm::StringRef name) {
  llvm::StringRef arrayName =
      destructors ? "llvm.global_dtors" : "llvm.global_ctors";
  llvm::GlobalVariable *array = module.getNamedGlobal(arrayName);
  if (!array)
    return;
  std::vector<llvm::orc::CtorDtorIterator::Element> elements;
  for (auto element : destructors ? llvm::orc::getDestructors(module)
                                  : llvm::orc::getConstructors(module))
    if (element.Func)
      elements.push_back(element);
  llvm::stable_sort(elements, [](const auto &a, const auto &b) {
    return a.Priority < b.Priority;
  });
  if (destructors)
    std::reverse(elements.begin(), elements.end());
  llvm::LLVMContext &context = module.getContext();
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::Function::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", function));
  for (const auto &element : elements)
    builder.CreateCall(element.Func);
  builder.CreateRetVoid();
  array->eraseFromParent();
}

/// The objects of `module`'s host code, generated on up to `threads`
/// threads (0: one per CPU the process may use), as many as the module's
/// size is worth (kInstructionsPerPart).
static llvm::Expected<std::vector<std::unique_ptr<llvm::MemoryBuffer>>>
generateObjects(llvm::Module &module,
                const llvm::orc::JITTargetMachineBuilder &machines,
                unsigned threads) {
  if (threads == 0)
    threads = llvm::hardware_concurrency().compute_thread_count();
  unsigned parts = std::clamp<unsigned>(
      module.getInstructionCount() / kInstructionsPerPart, 1, threads);
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  auto addObject = [&](llvm::SmallVector<char, 0> bytes) {
    objects.push_back(std::make_unique<llvm::SmallVectorMemoryBuffer>(
        std::move(bytes), "pcc-program-part" + std::to_string(objects.size()),
        /*RequiresNullTerminator=*/false));
  };
  if (parts == 1) {
    llvm::orc::JITTargetMachineBuilder builder = machines;
    auto machine = builder.createTargetMachine();
    if (!machine)
      return machine.takeError();
    auto object = emitObject(module, **machine);
    if (!object)
      return object.takeError();
    addObject(std::move(*object));
    return objects;
  }
  // Locals become hidden globals that the parts link to each other by; the
  // parts take the functions in turn, which balances segments of a similar
  // size.
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_svector_ostream os(bitcode.emplace_back());
        llvm::WriteBitcodeToFile(*part, os);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  std::vector<llvm::SmallVector<char, 0>> outputs(bitcode.size());
  std::vector<std::string> failures(bitcode.size());
  auto compile = [&](size_t index) -> llvm::Error {
    llvm::LLVMContext context;
    auto part = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(
            llvm::StringRef(bitcode[index].data(), bitcode[index].size()),
            "pcc-program-part"),
        context);
    if (!part)
      return part.takeError();
    // A builder of its own: creating a machine is not const.
    llvm::orc::JITTargetMachineBuilder builder = machines;
    auto machine = builder.createTargetMachine();
    if (!machine)
      return machine.takeError();
    auto object = emitObject(**part, **machine);
    if (!object)
      return object.takeError();
    outputs[index] = std::move(*object);
    return llvm::Error::success();
  };
  auto run = [&](size_t index) {
    if (llvm::Error error = compile(index))
      failures[index] = llvm::toString(std::move(error));
  };
  std::vector<std::thread> workers;
  for (size_t index = 1; index < bitcode.size(); ++index)
    workers.emplace_back(run, index);
  run(0);
  for (std::thread &worker : workers)
    worker.join();
  for (const std::string &failure : failures)
    if (!failure.empty())
      return llvm::createStringError(failure);
  for (auto &output : outputs)
    addObject(std::move(output));
  return objects;
}

/// The address of `name` in `jit`'s main library.
template <typename Function>
static llvm::Expected<Function *> lookUp(llvm::orc::LLJIT &jit,
                                         llvm::StringRef name) {
  auto address = jit.lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<Function *>();
}

llvm::Expected<CompiledProgram> pcc::driver::jitCompile(ModuleOp module,
                                                        unsigned threads) {
  // Only the entry is called from outside: everything else is internal, so
  // that the optimizer may specialize functions for their callers and drop
  // the unused.
  module.walk([](LLVM::LLVMFuncOp function) {
    if (!function.isExternal() &&
        function.getSymName() != "_mlir_ciface__pcc_entry")
      function.setLinkage(LLVM::Linkage::Internal);
  });
  auto machines = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machines)
    return machines.takeError();
  // What LLJIT sets for JITLink on x86-64, set here since the objects are
  // generated before it sees them.
  excludeCpuDependentFeatures(machines->getFeatures());
  machines->setCodeModel(llvm::CodeModel::Small);
  machines->setRelocationModel(llvm::Reloc::PIC_);
  machines->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  auto optimizerMachine = machines->createTargetMachine();
  if (!optimizerMachine)
    return optimizerMachine.takeError();

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "pcc-program");
  if (!llvmModule)
    return llvm::createStringError("cannot translate the program to LLVM IR");
  llvmModule->setTargetTriple((*optimizerMachine)->getTargetTriple());
  llvmModule->setDataLayout((*optimizerMachine)->createDataLayout());
  if (llvm::Error error = addPackedEntry(*llvmModule))
    return std::move(error);
  if (llvm::Error error = optimizeHostCode(*llvmModule, **optimizerMachine))
    return std::move(error);
  gatherStructors(*llvmModule, /*destructors=*/false, kConstructors);
  gatherStructors(*llvmModule, /*destructors=*/true, kDestructors);
  auto objects = generateObjects(*llvmModule, *machines, threads);
  if (!objects)
    return objects.takeError();

  // The parts reach each other's functions and data by 32-bit PC-relative
  // offsets (the small code model; hidden symbols need no GOT), so they
  // must lie within 2 GiB of each other: one reservation of address space
  // holds them all. JITLink's default gives each part its own mapping,
  // which the kernel may place anywhere (under AddressSanitizer it put two
  // parts terabytes apart, and linking failed).
  size_t objectBytes = 0;
  for (auto &object : *objects)
    objectBytes += object->getBufferSize();
  size_t reservation = llvm::alignTo(
      std::max<size_t>(2 * objectBytes + (1 << 20), 64 << 20), size_t(1) << 20);
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(*machines)
          .setDataLayout(llvmModule->getDataLayout())
          .setObjectLinkingLayerCreator(
              [reservation](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto memory =
                    llvm::orc::MapperJITLinkMemoryManager::CreateWithMapper<
                        llvm::orc::InProcessMemoryMapper>(reservation);
                if (!memory)
                  return memory.takeError();
                return std::make_unique<llvm::orc::ObjectLinkingLayer>(
                    session, std::move(*memory));
              })
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &library = (*jit)->getMainJITDylib();
  if (llvm::Error error = library.define(llvm::orc::absoluteSymbols(
          getRuntimeSymbols(llvm::orc::MangleAndInterner(
              (*jit)->getExecutionSession(), (*jit)->getDataLayout())))))
    return std::move(error);
  for (auto &object : *objects)
    if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
      return std::move(error);

  CompiledProgram program;
  program.codegenThreads = objects->size();
  program.jit = std::move(*jit);
  auto entry = lookUp<void(void **)>(*program.jit, "_pcc_program_entry");
  if (!entry)
    return entry.takeError();
  program.entry = *entry;
  // Both looked up first: the destructors run only after the constructors.
  void (*constructors)() = nullptr, (*destructors)() = nullptr;
  for (auto [name, function] : {std::pair(kConstructors, &constructors),
                                std::pair(kDestructors, &destructors)}) {
    if (!llvmModule->getFunction(name))
      continue;
    auto address = lookUp<void()>(*program.jit, name);
    if (!address)
      return address.takeError();
    *function = *address;
  }
  if (constructors)
    constructors();
  program.destructors = destructors;
  return program;
}

CompiledProgram::CompiledProgram() = default;

CompiledProgram::CompiledProgram(CompiledProgram &&other) noexcept {
  *this = std::move(other);
}

CompiledProgram &CompiledProgram::operator=(CompiledProgram &&other) noexcept {
  if (this == &other)
    return *this;
  if (destructors)
    destructors();
  jit = std::move(other.jit);
  entry = std::exchange(other.entry, nullptr);
  codegenThreads = other.codegenThreads;
  destructors = std::exchange(other.destructors, nullptr);
  return *this;
}

CompiledProgram::~CompiledProgram() {
  if (destructors)
    destructors();
}
