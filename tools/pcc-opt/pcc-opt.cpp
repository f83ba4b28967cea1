//===- pcc-opt.cpp - mlir-opt with the spmd dialect and pcc's passes -----===//
//
// The tool the lit tests drive: it parses, verifies, transforms and prints
// programs written in the dialects pcc programs may use, with MLIR's
// generic passes (canonicalize, cse, ...), pcc's own, and the backends'
// pipelines.
//
//===----------------------------------------------------------------------===//

#include "pcc/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  pcc::registerDialects(registry);
  mlir::registerTransformsPasses();
  pcc::registerPipelines();

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "pcc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  std::unique_ptr<llvm::ToolOutputFile> output =
      input ? mlir::openOutputFile(outputFilename, &error) : nullptr;
  if (!output) {
    llvm::errs() << "pcc-opt: error: " << error << "\n";
    return 1;
  }

  // Some upstream parsers crash on malformed input (linalg.reduce with
  // `dimensions = = [0]`, for one). Users get exit status 1 and an error
  // instead of a stack dump. (This is why pcc-opt calls the MlirOptMain
  // overload that does not install LLVM's stack-dumping signal handlers.)
  // Deeply nested input needs the compiler's large stack.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  mlir::LogicalResult result = mlir::failure();
  if (!recovery.RunSafelyOnThread(
          [&] {
            result = mlir::MlirOptMain(output->os(), std::move(input), registry,
                                       config);
          },
          pcc::kCompilerStackSize)) {
    llvm::errs() << inputFilename
                 << ": error: internal error: pcc-opt crashed while processing "
                    "this input (a bug in pcc or upstream MLIR; please report "
                    "it with the input)\n";
    return 1;
  }
  if (mlir::failed(result))
    return 1;
  output->keep();
  return 0;
}
