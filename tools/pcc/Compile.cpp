//===- Compile.cpp - pcc driver: from source to a callable entry ---------===//
//
// Implements the front half of Compile.h: the entry's boundary signature,
// the pipelines and the JIT (Executable.cpp has the rest).
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"
#include "pcc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace pcc::driver;
using pcc::arrayio::DType;

void pcc::driver::reportError(const llvm::Twine &message) {
  llvm::errs() << "pcc: error: " << message << "\n";
}

llvm::StringRef pcc::driver::getBackendName(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
}

/// The ArrayIO type of a scalar element type, if pcc exchanges it.
static std::optional<DType> getDType(Type type) {
  if (type.isSignlessInteger(1))
    return DType::Bool;
  if (type.isSignlessInteger(8))
    return DType::I8;
  if (type.isSignlessInteger(16))
    return DType::I16;
  if (type.isSignlessInteger(32))
    return DType::I32;
  if (type.isSignlessInteger(64))
    return DType::I64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
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

static constexpr llvm::StringLiteral kSupportedTypes =
    "statically shaped tensors and scalars of i1, i8, i16, i32, i64, f16, "
    "bf16, f32 or f64";

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
        << kSupportedTypes;
    ok = false;
  }
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    if (std::optional<BoundaryType> boundary = getBoundaryType(type)) {
      signature.results.push_back(std::move(*boundary));
      continue;
    }
    func.emitError() << "result #" << index << " of @" << name << " has type "
                     << type << ", but the driver returns only "
                     << kSupportedTypes;
    ok = false;
  }
  if (!ok)
    return failure();
  return signature;
}

std::optional<int64_t> pcc::driver::countDevices(ModuleOp module) {
  std::optional<int64_t> devices;
  module.walk([&](pcc::spmd::PmapOp pmap) {
    int64_t grid = 1;
    for (auto op = pmap; op; op = op->getParentOfType<pcc::spmd::PmapOp>())
      grid *= op.getAxisSize();
    devices = std::max(devices.value_or(0), grid);
  });
  return devices;
}

LogicalResult pcc::driver::lowerProgram(ModuleOp module, llvm::StringRef entry,
                                       Backend backend,
                                       const CudaOptions &cuda,
                                       int64_t memoryLimit) {
  PassManager pm(module->getName());
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
    options.hostCopies = cuda.hostCopies;
    pcc::buildCudaPipeline(pm, options);
  }
  return pm.run(module);
}

llvm::Expected<CompiledProgram> pcc::driver::jitCompile(ModuleOp module) {
  ExecutionEngineOptions options;
  auto optimize = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                            /*targetMachine=*/nullptr);
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return engine.takeError();
  // The pcc runtime's C functions resolve in-process: the driver links all
  // of PCCRuntime and exports its symbols (tools/pcc/CMakeLists.txt).
  auto entry = (*engine)->lookupPacked("_mlir_ciface__pcc_entry");
  if (!entry)
    return entry.takeError();
  (*engine)->initialize();
  CompiledProgram program;
  program.engine = std::move(*engine);
  program.entry = *entry;
  return program;
}
