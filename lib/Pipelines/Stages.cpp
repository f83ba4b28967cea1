//===- Stages.cpp - the stages that both backends' pipelines share -------===//
//
// docs/design.md shows the IR after each stage.
//
//===----------------------------------------------------------------------===//

#include "Stages.h"

#include "pcc/Codegen/CPU/Passes.h"
#include "pcc/Codegen/CUDA/Passes.h"
#include "pcc/Conversion/Passes.h"
#include "pcc/Dialect/SPMD/Transforms/Passes.h"
#include "pcc/Transforms/Passes.h"

#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void pcc::detail::buildBufferStages(OpPassManager &pm, StringRef entry,
                                    int64_t memoryLimit, bool cuda) {
  // spmd on tensors. Programs run in pcc's process: first make sure they
  // can only run their own code, and that their values fit in memory.
  pcc::PCCVerifyClosedOptions inputOptions;
  inputOptions.memoryLimit = memoryLimit;
  pm.addPass(pcc::createPCCVerifyClosed(inputOptions));
  // Writes into a to_buffer's buffer change no tensor, before canonicalizing
  // can fold a to_buffer into the buffer a tensor was read from.
  pm.addPass(pcc::createPCCCopyToBufferSources());
  pcc::PCCEntryABIOptions entryOptions;
  entryOptions.entry = entry.str();
  pm.addPass(pcc::createPCCEntryABI(entryOptions));
  // Indexing the program does at run time (tensor.extract and insert with a
  // dynamic index, slices with dynamic offsets or sizes) is checked before it
  // touches memory: a located error, not a read or write out of bounds.
  // Only the program's own ops exist yet, not the slices pcc makes (correct
  // by construction). On the cuda backend, only what runs on the host: GPU
  // kernels cannot call the runtime, and check their accesses themselves
  // (pcc-check-kernel-accesses, and the simulated GPU's).
  // So is recursion deeper than a device's stack (on cuda after the
  // kernels are outlined: buildCudaPipeline).
  pcc::PCCGenerateRuntimeChecksOptions checks;
  checks.kernelBodies = !cuda;
  pm.addPass(pcc::createPCCGenerateRuntimeChecks(checks));
  pm.addPass(createGenerateRuntimeVerificationPass());
  pcc::PCCLowerRuntimeChecksOptions lowerChecks;
  lowerChecks.kernelBodies = !cuda;
  pm.addPass(pcc::createPCCLowerRuntimeChecks(lowerChecks));
  if (!cuda)
    pm.addPass(pcc::createPCCGuardRecursion());
  pm.addPass(pcc::createPCCExpandPmean());
  pm.addPass(pcc::createPCCOutlinePmaps());
  // Collectives become runtime calls on tensors, which bufferize with the
  // rest of the body.
  pm.addPass(pcc::createPCCLowerCollectives());
  // Diagnostics that name the program's functions are behind; calls that
  // generated code makes by name are ahead.
  pm.addPass(pcc::createPCCRenameUserSymbols());
  // Integer division by zero and INT_MIN / -1, and shifts by the width or
  // more, give defined results, the same on every backend, instead of a
  // signal or whatever the hardware gives. (Before the canonicalizer, whose
  // folding of floordivsi on constant tensors gave x / 0 = x.)
  pm.addPass(pcc::createPCCDefineIntegerArithmetic());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(pcc::createPCCDecomposeLinalgOps());
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Chains of elementwise ops become one loop, computed into their result
  // rather than over a copy of their first operand.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCFuseElementwiseOps());
  // Loops compute their next value in place of the current one where they
  // can, instead of into a buffer per step.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCReuseLoopBuffers());

  // Tensors to buffers. Function boundaries use identity layouts, which is
  // what the device functions and the entry's C ABI expect.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops may carry fresh buffers (an scf.for whose iter_args are results of
  // collectives or other new tensors); deallocation handles them.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // x.T @ y reads x in place rather than a transposed copy.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCFoldTransposesIntoMatmuls());
  // A constant read by many ops would make bufferizing cost time in the
  // square of its uses.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCCloneTensorConstants());
  // A write in a linalg op's body into a tensor from outside it is made
  // into a copy per element: bufferization analyses the body as if it ran
  // once.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCPrivatizeBodyWrites());
  // Bodies compute straight into the pmap's result slices.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // A linalg op in another's body runs as loops in it, before CSE could
  // merge its linalg.index ops with the enclosing op's.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCLowerNestedLinalgOps());
  // A buffer that a loop's steps use one after another is allocated once,
  // before the loop, not once per step.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  // Deallocation frees what an scf.parallel or scf.for body allocates, but
  // leaves an scf.forall's buffers allocated: foralls become the loops that
  // run them, parallel loops on cpu, sequential ones on cuda (the host runs
  // a forall's iterations one after another, each launching its kernels).
  if (cuda)
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
  else
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  // Functions fill buffers their callers pass rather than returning new
  // ones, down to the entry, whose results land in the driver's buffers.
  pm.addNestedPass<func::FuncOp>(pcc::createPCCCopyRepeatedResults());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(pcc::createPCCEntryResultsInPlace());
  // Kernels read constants from buffers, not from the host's globals.
  if (cuda)
    pm.addPass(pcc::createPCCCopyConstantGlobals());
  // Buffer deallocation: upstream's pipeline, with, on cpu, each buffer
  // freed after its last use rather than at the end of its block.
  memref::ExpandReallocPassOptions expandRealloc;
  expandRealloc.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(memref::createExpandReallocPass(expandRealloc));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOwnershipBasedBufferDeallocationPass());
  if (!cuda)
    pm.addNestedPass<func::FuncOp>(pcc::createPCCFreeBuffersEarly());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Deallocation leaves bufferization.clone where a function returns a
  // buffer it does not own (a constant, an argument).
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void pcc::detail::buildHostToLLVMStages(OpPassManager &pm, bool cuda) {
  // Math ops: the three that neither libm nor LLVM take as they are are
  // expanded, integer powers become functions of the program, what LLVM
  // has an intrinsic for becomes the intrinsic (fabs, ctlz, is.fpclass,
  // exp, ...; log1p exact, not approximated), and the rest libm calls (erf,
  // tan, atan2, ...), which pcc-verify-closed allows by name.
  pm.addPass(pcc::createPCCExpandMath());
  pm.addPass(createConvertMathToFuncs());
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  // On cpu, function by function (on several threads): a rewrite driver's
  // sweeps over one module of a thousand outlined segments cost more per
  // function the more functions there are. On cuda they must also reach
  // the kernels, which are not func.func.
  OpPassManager &lowering = cuda ? pm : pm.nest<func::FuncOp>();
  lowering.addPass(memref::createExpandStridedMetadataPass());
  lowering.addPass(createLowerAffinePass());
  lowering.addPass(createSCFToControlFlowPass());
  // Runtime calls as calls of the runtime, buffers as pointers.
  pm.addPass(pcc::createPCCLowerRuntimeCalls());
  // Buffers come from the runtime's allocator, which enforces the memory
  // limit (cuda: managed memory), aligned by it: a pointer rounded up by
  // integer arithmetic would hide from LLVM that a buffer is fresh memory
  // (see optimizeHostCode).
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  memrefOptions.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // Calls first, by the pass that looks their callees up in a symbol table:
  // convert-to-llvm walks the module for each call's callee, time in the
  // square of the number of functions.
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pcc::PCCConvertLaunchToLLVMOptions launchOptions;
  launchOptions.launchFunction = cuda ? "pcc_cuda_launch" : "pcc_launch";
  pm.addPass(pcc::createPCCConvertLaunchToLLVM(launchOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pcc::PCCVerifyClosedOptions closedOptions;
  closedOptions.lowered = true;
  pm.addPass(pcc::createPCCVerifyClosed(closedOptions));
}
