//===- PipelineFuzzer.cpp - libFuzzer harness for the front end ----------===//
//
// Feeds arbitrary text through what `pcc run` does before it runs anything:
// parse and verify (the spmd verifier, uniformity included), the entry's
// boundary signature, the whole cpu pipeline (the closed-JIT check included)
// and the translation to LLVM IR, which must then pass LLVM's verifier.
// Rejecting the input with a diagnostic is fine; a crash, a sanitizer report,
// a hang or invalid LLVM IR from a program pcc accepted is a finding.
//
// Only pcc's own code is coverage-instrumented (the sanitizer build,
// scripts/setup.sh --sanitize); MLIR and LLVM are Debian's release
// libraries.
//
//===----------------------------------------------------------------------===//

#include "pcc/Driver/Driver.h"

#include "pcc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

/// Inputs that crash Debian's MLIR 22 parser itself, before any pcc code
/// runs (`pcc` then prints the parser's located error, and an internal
/// error from its crash recovery, and exits with 1: see
/// test/pcc/errors.test). Skipped, so that the fuzzer
/// looks for pcc's own bugs instead of finding these again.
static bool hitsKnownUpstreamCrash(llvm::StringRef text) {
  // linalg.{reduce,transpose,broadcast}'s custom parsers store a null
  // attribute when the value after `dimensions =` or `permutation =` fails
  // to parse as a list of integers.
  static const llvm::Regex attribute("(dimensions|permutation)[[:space:]]*=");
  static const llvm::Regex integerList(
      "^[[:space:]]*\\[[[:space:]]*(-?[0-9]{1,18}[[:space:]]*(,[[:space:]]*-?"
      "[0-9]{1,18}[[:space:]]*)*)?]");
  llvm::SmallVector<llvm::StringRef, 2> match;
  for (llvm::StringRef rest = text; attribute.match(rest, &match);) {
    rest = rest.drop_front(match[0].end() - rest.begin());
    if (!integerList.match(rest))
      return true;
  }
  // `array<index: ...>` asks for the bit width of `index`.
  static const llvm::Regex indexArray("array[[:space:]]*<[[:space:]]*index");
  // A named linalg op's custom form followed by `<` other than a properties
  // dictionary (`linalg.fill<i32>`) is read as a DictionaryAttr regardless.
  static const llvm::Regex linalgProperties(
      "linalg\\.[a-z_]+[[:space:]]*<[[:space:]]*[^{[:space:]]");
  return indexArray.match(text) || linalgProperties.match(text);
}

/// The entry `pcc run -e` would be given: @main if there is one, else the
/// first function with a body (most of test/'s inputs have no @main).
static std::string chooseEntry(ModuleOp module) {
  if (module.lookupSymbol("main"))
    return "main";
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      return func.getName().str();
  return "main";
}

/// Parses, verifies and lowers `text` as `pcc run` would, or returns null
/// when pcc rejects it. Rejections are expected; their diagnostics are
/// dropped, as printing them would only slow the fuzzer down.
static OwningOpRef<ModuleOp> lower(llvm::StringRef text, MLIRContext &context) {
  if (hitsKnownUpstreamCrash(text))
    return nullptr;
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "input.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  std::string entry = chooseEntry(*module);
  if (failed(pcc::driver::getEntrySignature(*module, entry)) ||
      failed(pcc::driver::lowerProgram(*module, entry,
                                       pcc::driver::Backend::Cpu)))
    return nullptr;
  return module;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry;
    pcc::registerDialects(*registry);
    return registry;
  }();
  // A fresh context per input, as the driver has: types and attributes
  // uniqued for one input must not leak into the next.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  OwningOpRef<ModuleOp> module = lower(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), context);
  if (!module)
    return 0;

  // pcc accepted the program: what it hands to LLVM must be valid IR.
  // (Run a saved input directly, fuzz-pipeline FILE, to see the diagnostics.)
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule) {
    llvm::errs() << "pcc lowered the program, but it does not translate to "
                    "LLVM IR\n";
    std::abort();
  }
  if (llvm::verifyModule(*llvmModule, &llvm::errs())) {
    llvm::errs() << "pcc lowered the program to invalid LLVM IR\n";
    std::abort();
  }
  return 0;
}
