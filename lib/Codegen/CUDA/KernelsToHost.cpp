//===- KernelsToHost.cpp - GPU kernels as host functions for cuda-sim ----===//
//
// For the simulated GPU: each kernel of each gpu.module becomes a host
// function of the program, and the gpu.module a placeholder gpu.binary that
// its launches keep naming until pcc-lower-simulated-launches. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "KernelChecks.h"

#include "pcc/Runtime/pcc_runtime.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>

namespace pcc {
#define GEN_PASS_DEF_PCCGPUKERNELSTOHOST
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {

/// Rewrites one kernel's body into a host function.
class KernelRewriter {
public:
  KernelRewriter(ModuleOp module, SymbolTable &symbols)
      : module(module), symbols(symbols), b(module.getContext()),
        converter(module.getContext()) {}

  LogicalResult rewrite(gpu::GPUModuleOp kernels, gpu::GPUFuncOp kernel);

private:
  /// A private NUL-terminated string, its address at `b`'s insertion point.
  /// (createGlobalString stores the bytes it is given: the NUL is ours.)
  Value string(Location loc, StringRef text) {
    std::string name = "pcc.sim.site." + std::to_string(sites++);
    return LLVM::createGlobalString(loc, b, name, (text + Twine('\0')).str(),
                                    LLVM::Linkage::Internal);
  }

  LLVM::LLVMFuncOp declare(StringRef name, Type result,
                           ArrayRef<Type> arguments) {
    return pcc::declareLLVMFunction(symbols, name, result, arguments);
  }

  /// Loads the i32 at byte `offset` of the pcc_sim_thread as an index.
  Value threadField(Location loc, size_t offset) {
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value address =
        LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), thread,
                            ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    Value value = LLVM::LoadOp::create(b, loc, b.getI32Type(), address);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
  }

  LogicalResult rewriteOp(Operation *op, StringRef kernelName);

  ModuleOp module;
  SymbolTable &symbols;
  OpBuilder b;
  LLVMTypeConverter converter;
  Value thread;
  int sites = 0;
};

LogicalResult KernelRewriter::rewrite(gpu::GPUModuleOp kernels,
                                      gpu::GPUFuncOp kernel) {
  MLIRContext *context = module.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Location loc = kernel.getLoc();
  std::string name =
      ("pcc.sim." + kernels.getName() + "." + kernel.getName()).str();

  // The host function: the kernel's arguments, then the simulated thread.
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.push_back(ptrType);
  b.setInsertionPointToEnd(module.getBody());
  auto host = func::FuncOp::create(b, loc, name,
                                   b.getFunctionType(inputs, TypeRange{}));
  host->setAttr("pcc.sim.module", kernels.getNameAttr());
  host->setAttr("pcc.sim.kernel", kernel.getNameAttr());
  symbols.insert(host);
  SmallVector<BlockArgument> workgroup(kernel.getWorkgroupAttributions());
  SmallVector<BlockArgument> privates(kernel.getPrivateAttributions());
  host.getBody().takeBody(kernel.getBody());
  Block &entry = host.getBody().front();
  thread = entry.addArgument(ptrType, loc);

  // Workgroup attributions: views of the block's shared memory, 16-byte
  // aligned one after the other. Private ones: the thread's own stack.
  b.setInsertionPointToStart(&entry);
  Value shared;
  int64_t sharedBytes = 0;
  for (BlockArgument attribution : workgroup) {
    auto type = cast<MemRefType>(attribution.getType());
    auto hostType = MemRefType::get(type.getShape(), type.getElementType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return kernel.emitError("the simulated GPU needs workgroup memory of a "
                              "static shape and identity layout, not ")
             << type;
    if (!shared) {
      Value address = LLVM::GEPOp::create(
          b, loc, ptrType, b.getI8Type(), thread,
          ArrayRef<LLVM::GEPArg>{int32_t(offsetof(pcc_sim_thread, shared))});
      shared = LLVM::LoadOp::create(b, loc, ptrType, address);
    }
    Value base =
        LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), shared,
                            ArrayRef<LLVM::GEPArg>{int32_t(sharedBytes)});
    Value descriptor =
        MemRefDescriptor::fromStaticShape(b, loc, converter, hostType, base);
    Value view =
        UnrealizedConversionCastOp::create(b, loc, hostType, descriptor)
            .getResult(0);
    attribution.replaceAllUsesWith(view);
    int64_t bytes =
        type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
    sharedBytes += (bytes + 15) / 16 * 16;
  }
  for (BlockArgument attribution : privates) {
    auto type = cast<MemRefType>(attribution.getType());
    auto hostType = MemRefType::get(type.getShape(), type.getElementType());
    attribution.replaceAllUsesWith(
        memref::AllocaOp::create(b, loc, hostType).getResult());
  }
  unsigned first = kernel.getNumArguments();
  unsigned count = workgroup.size() + privates.size();
  entry.eraseArguments(first, count);
  host->setAttr("pcc.sim.shared_bytes", b.getI64IntegerAttr(sharedBytes));

  // Memory spaces mean nothing on the host.
  host.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (auto type = dyn_cast<MemRefType>(result.getType()))
        if (type.getMemorySpace())
          result.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                         type.getLayout()));
  });

  SmallVector<Operation *> ops;
  host.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops)
    if (failed(rewriteOp(op, kernel.getName())))
      return failure();

  // An index out of bounds ends the run, naming the thread.
  auto fail = declare(
      "pcc_sim_out_of_bounds", LLVM::LLVMVoidType::get(context),
      {ptrType, ptrType, b.getI64Type(), b.getI64Type(), b.getI64Type()});
  pcc::checkKernelAccesses(host.getBody(), [&](OpBuilder &builder, Location at,
                                               StringRef site, Value axis,
                                               Value index, Value bound) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(builder.getInsertionBlock(),
                        builder.getInsertionPoint());
    LLVM::CallOp::create(
        b, at, fail, ValueRange{thread, string(at, site), axis, index, bound});
  });
  return success();
}

LogicalResult KernelRewriter::rewriteOp(Operation *op, StringRef kernelName) {
  MLIRContext *context = module.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  auto fieldOffset = [](size_t base, gpu::Dimension dimension) {
    return base + sizeof(uint32_t) * size_t(dimension);
  };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    op->getResult(0).replaceAllUsesWith(
        threadField(loc, fieldOffset(offsetof(pcc_sim_thread, thread_id),
                                     id.getDimension())));
  } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
    op->getResult(0).replaceAllUsesWith(
        threadField(loc, fieldOffset(offsetof(pcc_sim_thread, block_id),
                                     id.getDimension())));
  } else if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
    op->getResult(0).replaceAllUsesWith(
        threadField(loc, fieldOffset(offsetof(pcc_sim_thread, block_dim),
                                     dim.getDimension())));
  } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
    op->getResult(0).replaceAllUsesWith(
        threadField(loc, fieldOffset(offsetof(pcc_sim_thread, grid_dim),
                                     dim.getDimension())));
  } else if (isa<gpu::BarrierOp>(op)) {
    auto barrier = declare("pcc_sim_barrier", LLVM::LLVMVoidType::get(context),
                           {ptrType, ptrType});
    // A string of its own: the simulator tells barriers apart by address.
    std::string site = pcc::describeLocation(loc);
    site += site.empty() ? "gpu.barrier" : ": gpu.barrier";
    LLVM::CallOp::create(b, loc, barrier,
                         ValueRange{thread, string(loc, site)});
  } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    Type type = shuffle.getValue().getType();
    unsigned bits = type.getIntOrFloatBitWidth();
    Type intType = b.getIntegerType(bits);
    auto function = declare("pcc_sim_shuffle", b.getI64Type(),
                            {ptrType, b.getI64Type(), b.getI32Type(),
                             b.getI32Type(), b.getI32Type(), ptrType});
    Value value = shuffle.getValue();
    if (type != intType)
      value = arith::BitcastOp::create(b, loc, intType, value);
    if (bits < 64)
      value = arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
    Value mode = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                              int64_t(shuffle.getMode()));
    std::string site = pcc::describeLocation(loc);
    site += site.empty() ? "gpu.shuffle" : ": gpu.shuffle";
    Value result = LLVM::CallOp::create(
                       b, loc, function,
                       ValueRange{thread, value, shuffle.getOffset(),
                                  shuffle.getWidth(), mode, string(loc, site)})
                       .getResult();
    if (bits < 64)
      result = arith::TruncIOp::create(b, loc, intType, result);
    if (type != intType)
      result = arith::BitcastOp::create(b, loc, type, result);
    Value validAddress =
        LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), thread,
                            ArrayRef<LLVM::GEPArg>{int32_t(
                                offsetof(pcc_sim_thread, shuffle_valid))});
    Value valid = LLVM::LoadOp::create(b, loc, b.getI32Type(), validAddress);
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    Value isValid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, valid, zero);
    shuffle.getShuffleResult().replaceAllUsesWith(result);
    shuffle.getValid().replaceAllUsesWith(isValid);
  } else if (isa<gpu::ReturnOp>(op)) {
    func::ReturnOp::create(b, loc);
  } else if (op->getDialect() && isa<gpu::GPUDialect>(op->getDialect())) {
    return op->emitError("the simulated GPU (--backend=cuda-sim) cannot run '")
           << op->getName() << "' in kernel '" << kernelName << "'";
  } else {
    return success();
  }
  op->erase();
  return success();
}

struct PCCGPUKernelsToHostPass
    : public pcc::impl::PCCGPUKernelsToHostBase<PCCGPUKernelsToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    KernelRewriter rewriter(module, symbols);
    for (auto kernels :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      for (auto kernel :
           llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>())) {
        if (!kernel.isKernel())
          continue;
        if (failed(rewriter.rewrite(kernels, kernel)))
          return signalPassFailure();
      }
      // Launches keep naming @module::@kernel until
      // pcc-lower-simulated-launches; a gpu.binary holds the name.
      OpBuilder b(kernels);
      Attribute target = kernels.getTargetsAttr() ? kernels.getTargetsAttr()[0]
                                                  : Attribute(b.getUnitAttr());
      auto object = gpu::ObjectAttr::get(target, gpu::CompilationTarget::Binary,
                                         b.getStringAttr(""));
      auto binary =
          gpu::BinaryOp::create(b, module.getLoc(), kernels.getName(),
                                Attribute(), ArrayRef<Attribute>{object});
      symbols.erase(kernels);
      symbols.insert(binary);
    }
  }
};

} // namespace
