//===- LowerSimulatedLaunches.cpp - Launches of host-compiled kernels -----===//
//
// The last step of the cuda-sim pipeline, on the LLVM dialect: each
// placeholder gpu.binary of pcc-gpu-kernels-to-host becomes a pcc_sim_image
// (the kernels' entry points, parameter sizes and shared memory), loaded and
// unloaded by global constructors and destructors through mgpuModuleLoad and
// mgpuModuleUnload, and each gpu.launch_func the same mgpu* calls that the
// translation of a launch makes for a real GPU. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "KernelChecks.h"

#include "pcc/Runtime/pcc_runtime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERSIMULATEDLAUNCHES
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {

class LaunchLowering {
public:
  explicit LaunchLowering(ModuleOp module)
      : module(module), symbols(module), b(module.getContext()),
        ptr(LLVM::LLVMPointerType::get(module.getContext())),
        i64(b.getI64Type()), i32(b.getI32Type()) {}

  LogicalResult run();

private:
  LLVM::LLVMFuncOp declare(StringRef name, Type result,
                           ArrayRef<Type> arguments) {
    return pcc::declareLLVMFunction(symbols, name, result, arguments);
  }

  /// A global at module level, built by `body` in its initializer region
  /// (null: zero-initialized).
  LLVM::GlobalOp global(StringRef name, Type type, bool constant,
                        function_ref<Value(OpBuilder &)> body) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto op =
        LLVM::GlobalOp::create(b, module.getLoc(), type, constant,
                               LLVM::Linkage::Internal, name, Attribute());
    Block *init = b.createBlock(&op.getInitializerRegion());
    b.setInsertionPointToStart(init);
    Value value = body ? body(b) : LLVM::ZeroOp::create(b, op.getLoc(), type);
    LLVM::ReturnOp::create(b, op.getLoc(), value);
    symbols.insert(op);
    return op;
  }

  /// A constant global holding `text` and a NUL.
  LLVM::GlobalOp stringGlobal(StringRef name, StringRef text) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    std::string value = text.str();
    value.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    auto op = LLVM::GlobalOp::create(b, module.getLoc(), type, true,
                                     LLVM::Linkage::Internal, name,
                                     b.getStringAttr(value));
    symbols.insert(op);
    return op;
  }

  Value address(OpBuilder &builder, LLVM::GlobalOp op) {
    return LLVM::AddressOfOp::create(builder, op.getLoc(), op);
  }

  LLVM::LLVMFuncOp entryPoint(LLVM::LLVMFuncOp kernel);
  LogicalResult lowerModule(gpu::BinaryOp binary);
  void lowerLaunch(gpu::LaunchFuncOp launch);

  ModuleOp module;
  SymbolTable symbols;
  OpBuilder b;
  Type ptr, i64, i32;
  /// Each module's handle (a global that its constructor sets).
  llvm::StringMap<LLVM::GlobalOp> handles;
  /// Each kernel's name, as a string global, by "module.kernel".
  llvm::StringMap<LLVM::GlobalOp> names;
  /// The modules' constructors and destructors.
  SmallVector<Attribute> ctors, dtors;
};

/// entry(params, thread): loads each argument from its pointer in params and
/// calls the kernel with them and the thread.
LLVM::LLVMFuncOp LaunchLowering::entryPoint(LLVM::LLVMFuncOp kernel) {
  Location loc = kernel.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc, (kernel.getName() + ".entry").str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()),
                                  {ptr, ptr}),
      LLVM::Linkage::Internal);
  symbols.insert(entry);
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  ArrayRef<Type> types = kernel.getFunctionType().getParams();
  SmallVector<Value> arguments;
  for (unsigned i = 0; i + 1 < types.size(); ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, body->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    Value pointer = LLVM::LoadOp::create(b, loc, ptr, slot);
    arguments.push_back(LLVM::LoadOp::create(b, loc, types[i], pointer));
  }
  arguments.push_back(body->getArgument(1));
  LLVM::CallOp::create(b, loc, kernel, arguments);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return entry;
}

LogicalResult LaunchLowering::lowerModule(gpu::BinaryOp binary) {
  Location loc = binary.getLoc();
  StringRef moduleName = binary.getName();
  std::string prefix = ("pcc.sim." + moduleName).str();
  DataLayout layout = DataLayout::closest(module);

  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (auto owner = function->getAttrOfType<StringAttr>("pcc.sim.module"))
      if (owner.getValue() == moduleName)
        kernels.push_back(function);

  // pcc_sim_kernel and pcc_sim_image, as pcc_runtime.h lays them out.
  auto kernelType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                     {ptr, ptr, i64, ptr, i64});
  auto tableType = LLVM::LLVMArrayType::get(kernelType, kernels.size());
  SmallVector<std::tuple<LLVM::GlobalOp, LLVM::LLVMFuncOp, int64_t,
                         LLVM::GlobalOp, int64_t>>
      rows;
  for (LLVM::LLVMFuncOp kernel : kernels) {
    auto kernelName = kernel->getAttrOfType<StringAttr>("pcc.sim.kernel");
    auto shared = kernel->getAttrOfType<IntegerAttr>("pcc.sim.shared_bytes");
    if (!kernelName || !shared)
      return kernel.emitError("a simulated kernel without its name or its "
                              "shared memory size");
    kernel.setLinkage(LLVM::Linkage::Internal);
    LLVM::GlobalOp name =
        stringGlobal((kernel.getName() + ".name").str(), kernelName.getValue());
    names[(moduleName + "." + kernelName.getValue()).str()] = name;

    ArrayRef<Type> types = kernel.getFunctionType().getParams();
    SmallVector<int64_t> sizes;
    for (unsigned i = 0; i + 1 < types.size(); ++i)
      sizes.push_back(int64_t(layout.getTypeSize(types[i]).getFixedValue()));
    auto sizesType =
        LLVM::LLVMArrayType::get(i64, std::max<size_t>(1, sizes.size()));
    if (sizes.empty())
      sizes.push_back(0);
    LLVM::GlobalOp sizesGlobal =
        global((kernel.getName() + ".param_sizes").str(), sizesType, true,
               [&](OpBuilder &builder) -> Value {
                 return LLVM::ConstantOp::create(
                     builder, loc, sizesType, builder.getI64TensorAttr(sizes));
               });
    rows.emplace_back(name, entryPoint(kernel), int64_t(types.size() - 1),
                      sizesGlobal, shared.getInt());
  }

  LLVM::GlobalOp table = global(
      prefix + ".kernels", tableType, true, [&](OpBuilder &builder) -> Value {
        Value value = LLVM::UndefOp::create(builder, loc, tableType);
        for (auto [i, row] : llvm::enumerate(rows)) {
          auto [name, entry, count, sizes, shared] = row;
          Value fields[] = {
              address(builder, name),
              LLVM::AddressOfOp::create(builder, loc, entry),
              LLVM::ConstantOp::create(builder, loc, i64, count),
              address(builder, sizes),
              LLVM::ConstantOp::create(builder, loc, i64, shared)};
          Value element = LLVM::UndefOp::create(builder, loc, kernelType);
          for (auto [f, field] : llvm::enumerate(fields))
            element = LLVM::InsertValueOp::create(
                builder, loc, element, field, ArrayRef<int64_t>{int64_t(f)});
          value = LLVM::InsertValueOp::create(builder, loc, value, element,
                                              ArrayRef<int64_t>{int64_t(i)});
        }
        return value;
      });
  auto imageType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {i64, i64, ptr});
  LLVM::GlobalOp image =
      global(prefix + ".image", imageType, true, [&](OpBuilder &builder) {
        Value fields[] = {LLVM::ConstantOp::create(
                              builder, loc, i64, int64_t(PCC_SIM_IMAGE_MAGIC)),
                          LLVM::ConstantOp::create(builder, loc, i64,
                                                   int64_t(kernels.size())),
                          address(builder, table)};
        Value value = LLVM::UndefOp::create(builder, loc, imageType);
        for (auto [f, field] : llvm::enumerate(fields))
          value = LLVM::InsertValueOp::create(builder, loc, value, field,
                                              ArrayRef<int64_t>{int64_t(f)});
        return value;
      });

  // The module's handle, set and cleared as a cubin's would be.
  LLVM::GlobalOp handle = global(prefix + ".module", ptr, false, nullptr);
  handles[moduleName] = handle;
  auto voidType = LLVM::LLVMVoidType::get(b.getContext());
  auto load = declare("mgpuModuleLoad", ptr, {ptr, i64});
  auto unload = declare("mgpuModuleUnload", voidType, {ptr});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto ctor = LLVM::LLVMFuncOp::create(
      b, loc, prefix + ".load", LLVM::LLVMFunctionType::get(voidType, {}),
      LLVM::Linkage::Internal);
  symbols.insert(ctor);
  b.setInsertionPointToStart(ctor.addEntryBlock(b));
  Value size = LLVM::ConstantOp::create(
      b, loc, i64, int64_t(layout.getTypeSize(imageType).getFixedValue()));
  Value loaded =
      LLVM::CallOp::create(b, loc, load, ValueRange{address(b, image), size})
          .getResult();
  LLVM::StoreOp::create(b, loc, loaded, address(b, handle));
  LLVM::ReturnOp::create(b, loc, ValueRange{});

  b.setInsertionPointToEnd(module.getBody());
  auto dtor = LLVM::LLVMFuncOp::create(
      b, loc, prefix + ".unload", LLVM::LLVMFunctionType::get(voidType, {}),
      LLVM::Linkage::Internal);
  symbols.insert(dtor);
  b.setInsertionPointToStart(dtor.addEntryBlock(b));
  Value current = LLVM::LoadOp::create(b, loc, ptr, address(b, handle));
  LLVM::CallOp::create(b, loc, unload, ValueRange{current});
  LLVM::ReturnOp::create(b, loc, ValueRange{});

  ctors.push_back(FlatSymbolRefAttr::get(ctor));
  dtors.push_back(FlatSymbolRefAttr::get(dtor));
  binary.erase();
  return success();
}

/// What the translation of a synchronous gpu.launch_func emits for a real
/// GPU: the kernel looked up in its module, the arguments in a struct with a
/// pointer to each field, a launch on a fresh stream, then a wait.
void LaunchLowering::lowerLaunch(gpu::LaunchFuncOp launch) {
  Location loc = launch.getLoc();
  b.setInsertionPoint(launch);
  auto voidType = LLVM::LLVMVoidType::get(b.getContext());
  auto getFunction = declare("mgpuModuleGetFunction", ptr, {ptr, ptr});
  auto streamCreate = declare("mgpuStreamCreate", ptr, {});
  auto streamSynchronize = declare("mgpuStreamSynchronize", voidType, {ptr});
  auto streamDestroy = declare("mgpuStreamDestroy", voidType, {ptr});
  auto launchKernel =
      declare("mgpuLaunchKernel", voidType,
              {ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64});

  StringRef moduleName = launch.getKernelModuleName().getValue();
  StringRef kernelName = launch.getKernelName().getValue();
  Value handle =
      LLVM::LoadOp::create(b, loc, ptr, address(b, handles[moduleName]));
  Value name = address(b, names[(moduleName + "." + kernelName).str()]);
  Value function =
      LLVM::CallOp::create(b, loc, getFunction, ValueRange{handle, name})
          .getResult();

  ValueRange operands = launch.getKernelOperands();
  SmallVector<Type> types(operands.getTypes());
  auto argsType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  Value one = LLVM::ConstantOp::create(b, loc, i64, int64_t(1));
  Value args = LLVM::AllocaOp::create(b, loc, ptr, argsType, one);
  Value count = LLVM::ConstantOp::create(b, loc, i64, int64_t(operands.size()));
  Value params = LLVM::AllocaOp::create(b, loc, ptr, ptr, count);
  for (auto [i, operand] : llvm::enumerate(operands)) {
    Value field = LLVM::GEPOp::create(b, loc, ptr, argsType, args,
                                      ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
    LLVM::StoreOp::create(b, loc, operand, field);
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, params,
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    LLVM::StoreOp::create(b, loc, field, slot);
  }
  Value stream =
      LLVM::CallOp::create(b, loc, streamCreate, ValueRange{}).getResult();
  Value shared = launch.getDynamicSharedMemorySize();
  if (!shared)
    shared = LLVM::ConstantOp::create(b, loc, i32, int64_t(0));
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  auto size = [&](Value value) -> Value {
    if (value.getType() == i64)
      return value;
    return LLVM::SExtOp::create(b, loc, i64, value);
  };
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  LLVM::CallOp::create(b, loc, launchKernel,
                       ValueRange{function, size(grid.x), size(grid.y),
                                  size(grid.z), size(block.x), size(block.y),
                                  size(block.z), shared, stream, params, null,
                                  count});
  LLVM::CallOp::create(b, loc, streamSynchronize, ValueRange{stream});
  LLVM::CallOp::create(b, loc, streamDestroy, ValueRange{stream});
  launch.erase();
}

LogicalResult LaunchLowering::run() {
  for (auto binary : llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
    if (failed(lowerModule(binary)))
      return failure();
  SmallVector<gpu::LaunchFuncOp> launches;
  module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
  for (gpu::LaunchFuncOp launch : launches) {
    if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
        launch.getAsyncObject())
      return launch.emitError("pcc-lower-simulated-launches handles "
                              "synchronous launches only");
    lowerLaunch(launch);
  }
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  if (ctors.empty())
    return success();
  // Nothing else of the program has constructors: the real cuda path gets
  // its own only when translated to LLVM IR.
  b.setInsertionPointToEnd(module.getBody());
  SmallVector<Attribute> priorities(ctors.size(), b.getI32IntegerAttr(123));
  SmallVector<Attribute> data(ctors.size(),
                              LLVM::ZeroAttr::get(b.getContext()));
  LLVM::GlobalCtorsOp::create(b, module.getLoc(), b.getArrayAttr(ctors),
                              b.getArrayAttr(priorities), b.getArrayAttr(data));
  LLVM::GlobalDtorsOp::create(b, module.getLoc(), b.getArrayAttr(dtors),
                              b.getArrayAttr(priorities), b.getArrayAttr(data));
  return success();
}

struct PCCLowerSimulatedLaunchesPass
    : public pcc::impl::PCCLowerSimulatedLaunchesBase<
          PCCLowerSimulatedLaunchesPass> {
  void runOnOperation() override {
    if (failed(LaunchLowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
