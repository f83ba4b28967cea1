//===- Compile.cpp - pcc driver: from source to the lowered program -------===//
//
// Implements the front half of pcc/Driver/Driver.h: the entry's boundary
// signature and the pipelines (Jit.cpp and Executable.cpp have the rest).
//
//===----------------------------------------------------------------------===//

#include "pcc/Driver/Driver.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"
#include "pcc/Pipelines/Pipelines.h"
#include "pcc/Runtime/RuntimeABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/SourceMgr.h"
#include <numeric>

using namespace mlir;
using namespace pcc::driver;
using pcc::arrayio::DType;

void pcc::driver::reportError(const llvm::Twine &message) {
  // Under mpirun every process meets the same errors: process 0 reports.
  if (pcc_process_rank() != 0)
    return;
  llvm::errs() << "pcc: error: " << message << "\n";
}

LogicalResult pcc::driver::checkNesting(llvm::SourceMgr &sourceMgr,
                                        unsigned buffer, MLIRContext *context) {
  llvm::StringRef text = sourceMgr.getMemoryBuffer(buffer)->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // A string: up to its unescaped closing quote.
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && text.substr(i).starts_with("//")) {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth <= kMaxNesting)
        continue;
      auto [line, column] = sourceMgr.getLineAndColumn(
          llvm::SMLoc::getFromPointer(text.data() + i), buffer);
      emitError(FileLineColLoc::get(
          context, sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier(),
          line, column))
          << "the program nests brackets, types or regions more than "
          << kMaxNesting << " levels deep, which pcc does not compile";
      return failure();
    } else if (c == ')' || c == ']' || c == '}' ||
               // '>' but not an arrow '->' or a comparison '>='.
               (c == '>' && (i == 0 || text[i - 1] != '-') &&
                !text.substr(i).starts_with(">="))) {
      depth = depth ? depth - 1 : 0;
    }
  }
  return success();
}

llvm::StringRef pcc::driver::getBackendName(Backend backend) {
  switch (backend) {
  case Backend::Cpu:
    return "cpu";
  case Backend::Cuda:
    return "cuda";
  case Backend::CudaSim:
    return "cuda-sim";
  }
  llvm_unreachable("unknown backend");
}

/// The ArrayIO type of a scalar element type, if pcc exchanges it. ArrayIO
/// lists the runtime's element types in the runtime's order.
static_assert(int(DType::I8) == PCC_I8 && int(DType::I64) == PCC_I64 &&
                  int(DType::F16) == PCC_F16 && int(DType::BF16) == PCC_BF16 &&
                  int(DType::F64) == PCC_F64 && int(DType::Bool) == PCC_I1,
              "ArrayIO's DType must follow RuntimeABI.def");
static std::optional<DType> getDType(Type type) {
  if (const pcc::abi::ElementType *element =
          pcc::spmd::getRuntimeElementType(type))
    return static_cast<DType>(element->code);
  return std::nullopt;
}

/// The boundary type of a value of `type`, if it can cross the boundary.
static std::optional<BoundaryType> getBoundaryType(Type type) {
  BoundaryType boundary;
  llvm::raw_string_ostream(boundary.mlirType) << type;
  Type elementType = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape() || tensor.getEncoding())
      return std::nullopt;
    elementType = tensor.getElementType();
    boundary.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  }
  std::optional<DType> dtype = getDType(elementType);
  if (!dtype)
    return std::nullopt;
  boundary.dtype = *dtype;
  return boundary;
}

static std::string getSupportedTypesText() {
  return "statically shaped tensors and scalars of " +
         pcc::spmd::getSupportedElementTypesText(/*allowI1=*/true);
}

FailureOr<EntrySignature> pcc::driver::getEntrySignature(ModuleOp module,
                                                         llvm::StringRef name) {
  Operation *symbol = module.lookupSymbol(name);
  auto func = dyn_cast_or_null<func::FuncOp>(symbol);
  if (!func) {
    if (symbol)
      symbol->emitError() << "the entry @" << name << " must be a func.func";
    else
      reportError("the program has no function @" + name +
                  " (choose the entry function with -e NAME)");
    return failure();
  }
  if (func.isExternal()) {
    func.emitError() << "the entry function @" << name << " has no body";
    return failure();
  }

  EntrySignature signature;
  signature.name = name.str();
  bool ok = true;
  for (BlockArgument argument : func.getArguments()) {
    if (std::optional<BoundaryType> type =
            getBoundaryType(argument.getType())) {
      signature.arguments.push_back(std::move(*type));
      continue;
    }
    emitError(argument.getLoc())
        << "argument #" << argument.getArgNumber() << " of @" << name
        << " has type " << argument.getType() << ", but the driver passes only "
        << getSupportedTypesText();
    ok = false;
  }
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    if (std::optional<BoundaryType> boundary = getBoundaryType(type)) {
      signature.results.push_back(std::move(*boundary));
      continue;
    }
    func.emitError() << "result #" << index << " of @" << name << " has type "
                     << type << ", but the driver returns only "
                     << getSupportedTypesText();
    ok = false;
  }
  if (!ok)
    return failure();
  return signature;
}

/// Each outermost pmap with the devices of its launch: a nest runs as one
/// launch of all its axes' grid.
static SmallVector<std::pair<pcc::spmd::PmapOp, int64_t>>
getLaunchGrids(ModuleOp module) {
  SmallVector<std::pair<pcc::spmd::PmapOp, int64_t>> grids;
  module.walk([&](pcc::spmd::PmapOp pmap) {
    if (!pmap->getParentOfType<pcc::spmd::PmapOp>())
      grids.push_back({pmap, pmap.getNestDeviceCount()});
  });
  return grids;
}

std::optional<int64_t> pcc::driver::countDevices(ModuleOp module) {
  std::optional<int64_t> devices;
  for (auto [pmap, grid] : getLaunchGrids(module))
    devices = std::max(devices.value_or(0), grid);
  return devices;
}

LogicalResult pcc::driver::checkProcessSplit(ModuleOp module,
                                             int64_t processes) {
  for (auto [pmap, grid] : getLaunchGrids(module)) {
    if (grid % processes == 0)
      continue;
    return pmap.emitError()
           << "this pmap runs on " << grid << " devices, which do not split "
           << "over " << processes << " processes: run with a number of "
           << "processes that divides " << grid << " (mpirun -np P)";
  }
  return success();
}

int64_t pcc::driver::getProcessSplit(ModuleOp module) {
  int64_t split = 0;
  for (auto [pmap, grid] : getLaunchGrids(module))
    split = std::gcd(split, grid);
  return split;
}

LogicalResult pcc::driver::lowerProgram(ModuleOp module, llvm::StringRef entry,
                                        Backend backend,
                                        const CudaOptions &cuda,
                                        int64_t memoryLimit) {
  PassManager pm(module->getName());
  // The lowered module is verified once, at the end, not after each of the
  // pipeline's forty passes: that was a tenth of the compile time of a
  // large program. pcc-opt, which the tests of each pass use, verifies
  // after every pass.
  pm.enableVerifier(false);
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  applyDefaultTimingPassManagerCLOptions(pm);
  if (backend == Backend::Cpu) {
    pcc::CpuPipelineOptions options;
    options.entry = entry.str();
    options.memoryLimit = memoryLimit;
    pcc::buildCpuPipeline(pm, options);
  } else {
    pcc::CudaPipelineOptions options;
    options.entry = entry.str();
    options.memoryLimit = memoryLimit;
    options.format = cuda.kernels == KernelFormat::PTX ? "isa" : "fatbin";
    options.simulate = backend == Backend::CudaSim;
    pcc::buildCudaPipeline(pm, options);
  }
  return failure(failed(pm.run(module)) || failed(verify(module)));
}
