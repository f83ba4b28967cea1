//===- LaunchToLLVM.cpp - spmd.launch as a pcc runtime call --------------===//
//
// Lowers spmd.launch, after everything else reached the LLVM dialect, to a
// call of pcc_launch with a thunk that unpacks the buffers and calls the
// device function's C interface, and the launch's work (-1 if unknown),
// followed by a pcc_share_output call per output (for runs on several
// processes).
//
//===----------------------------------------------------------------------===//

#include "pcc/Conversion/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCONVERTLAUNCHTOLLVM
#include "pcc/Conversion/Passes.h.inc"
} // namespace pcc

using namespace mlir;
using namespace pcc::spmd;


/// The function `name` of `type`, declared at the start of `module` if it is
/// not there yet.
static LLVM::LLVMFuncOp getOrDeclare(ModuleOp module, StringRef name,
                                     LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// `void @<callee>_thunk(ptr args, i64 device)` (renamed if the name is
/// taken): loads one descriptor pointer per buffer from `args` and calls
/// `_mlir_ciface_<callee>(device, ...)`.
static LLVM::LLVMFuncOp createThunk(ModuleOp module, SymbolTable &symbols,
                                    StringRef callee, unsigned numBuffers) {
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto i64Type = IntegerType::get(context, 64);
  auto voidType = LLVM::LLVMVoidType::get(context);

  SmallVector<Type> calleeArgs{i64Type};
  calleeArgs.append(numBuffers, ptrType);
  LLVM::LLVMFuncOp target =
      getOrDeclare(module, ("_mlir_ciface_" + callee).str(),
                   LLVM::LLVMFunctionType::get(voidType, calleeArgs));

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto thunk = LLVM::LLVMFuncOp::create(
      builder, loc, (callee + "_thunk").str(),
      LLVM::LLVMFunctionType::get(voidType, {ptrType, i64Type}));
  symbols.insert(thunk);
  Block *entry = thunk.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> args{entry->getArgument(1)};
  for (unsigned index = 0; index < numBuffers; ++index) {
    Value slot = LLVM::GEPOp::create(
        builder, loc, ptrType, ptrType, entry->getArgument(0),
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
    args.push_back(LLVM::LoadOp::create(builder, loc, ptrType, slot));
  }
  LLVM::CallOp::create(builder, loc, target, args);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  return thunk;
}

namespace {
struct LaunchOpLowering : public ConvertOpToLLVMPattern<LaunchOp> {
  LaunchOpLowering(const LLVMTypeConverter &converter,
                   const llvm::StringMap<LLVM::LLVMFuncOp> &thunks,
                   LLVM::LLVMFuncOp launch, LLVM::LLVMFuncOp shareOutput)
      : ConvertOpToLLVMPattern(converter), thunks(thunks), launch(launch),
        shareOutput(shareOutput) {}

  LogicalResult
  matchAndRewrite(LaunchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i64Type = rewriter.getI64Type();
    unsigned numBuffers = adaptor.getOperands().size();

    // Created before the conversion started (see runOnOperation).
    LLVM::LLVMFuncOp thunk = thunks.lookup(op.getCallee());

    // One stack slot per descriptor, and an array of pointers to them,
    // allocated once in the entry block (a launch may sit in a loop).
    OpBuilder::InsertPoint launchPoint = rewriter.saveInsertionPoint();
    rewriter.setInsertionPointToStart(
        &op->getParentOfType<LLVM::LLVMFuncOp>().getBody().front());
    Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);
    Value array = LLVM::AllocaOp::create(
        rewriter, loc, ptrType, LLVM::LLVMArrayType::get(ptrType, numBuffers),
        one);
    SmallVector<Value> slots;
    for (Value descriptor : adaptor.getOperands())
      slots.push_back(LLVM::AllocaOp::create(rewriter, loc, ptrType,
                                             descriptor.getType(), one));
    rewriter.restoreInsertionPoint(launchPoint);
    for (auto [index, descriptor, slot] :
         llvm::enumerate(adaptor.getOperands(), slots)) {
      LLVM::StoreOp::create(rewriter, loc, descriptor, slot);
      Value element = LLVM::GEPOp::create(
          rewriter, loc, ptrType, ptrType, array,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc, slot, element);
    }
    Value body = LLVM::AddressOfOp::create(rewriter, loc, thunk);
    Value devices =
        LLVM::ConstantOp::create(rewriter, loc, i64Type, op.getDevices());
    Value work = LLVM::ConstantOp::create(rewriter, loc, i64Type,
                                          op.getWork().value_or(-1));
    LLVM::CallOp::create(rewriter, loc, launch,
                         ValueRange{devices, body, array, work});
    // Under several processes each ran a block of the devices: every
    // process then needs the parts of the outputs that the others wrote.
    DataLayout layout = DataLayout::closest(op);
    unsigned numInputs = op.getInputs().size();
    std::optional<ArrayRef<bool>> uniform = op.getUniformOutputs();
    std::optional<ArrayRef<bool>> returned = op.getReturnedOutputs();
    auto flag = [&](std::optional<ArrayRef<bool>> flags, size_t index) {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                      flags && (*flags)[index]);
    };
    for (auto [index, output] : llvm::enumerate(op.getOutputs())) {
      auto type = cast<MemRefType>(output.getType());
      Value rank =
          LLVM::ConstantOp::create(rewriter, loc, i64Type, type.getRank());
      Value elemBytes = LLVM::ConstantOp::create(
          rewriter, loc, i64Type,
          int64_t(layout.getTypeSize(type.getElementType())));
      LLVM::CallOp::create(rewriter, loc, shareOutput,
                           ValueRange{devices, rank, slots[numInputs + index],
                                      elemBytes, flag(uniform, index),
                                      flag(returned, index)});
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// The thunk of each device function.
  const llvm::StringMap<LLVM::LLVMFuncOp> &thunks;
  /// The runtime's launch function.
  LLVM::LLVMFuncOp launch;
  /// pcc_share_output.
  LLVM::LLVMFuncOp shareOutput;
};

struct PCCConvertLaunchToLLVMPass
    : public pcc::impl::PCCConvertLaunchToLLVMBase<PCCConvertLaunchToLLVMPass> {
  using PCCConvertLaunchToLLVMBase::PCCConvertLaunchToLLVMBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    // Module-level functions first: patterns only rewrite the launches.
    // (pcc-verify-closed reserves the runtime's names, so a program cannot
    // define its own pcc_launch.)
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i64Type = IntegerType::get(context, 64);
    SymbolTable symbols(module);
    llvm::StringMap<LLVM::LLVMFuncOp> thunks;
    LLVM::LLVMFuncOp launch, shareOutput;
    module.walk([&](LaunchOp op) {
      LLVM::LLVMFuncOp &thunk = thunks[op.getCallee()];
      if (!thunk)
        thunk = createThunk(module, symbols, op.getCallee(),
                            op->getNumOperands());
      launch = getOrDeclare(
          module, launchFunction,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                      {i64Type, ptrType, ptrType, i64Type}));
      shareOutput = getOrDeclare(
          module, "pcc_share_output",
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                      {i64Type, i64Type, ptrType, i64Type,
                                       IntegerType::get(context, 32),
                                       IntegerType::get(context, 32)}));
    });
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    patterns.add<LaunchOpLowering>(converter, thunks, launch, shareOutput);
    ConversionTarget target(*context);
    target.addIllegalOp<LaunchOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
