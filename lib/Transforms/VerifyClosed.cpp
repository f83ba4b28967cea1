//===- VerifyClosed.cpp - programs run only their own code ---------------===//
//
// pcc JIT-runs user programs in its own process. This pass keeps them
// closed: on input, only the dialects of the language and only defined
// functions; after lowering, only calls into the pcc runtime (its ABI in
// pcc/Runtime/RuntimeABI.def) and the allocator. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "pcc/Dialect/SPMD/IR/SPMDOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace pcc {
#define GEN_PASS_DEF_PCCVERIFYCLOSED
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// The dialects a program may use (docs/language.md).
static constexpr llvm::StringLiteral kInputDialects[] = {
    "builtin", "func", "arith",         "math", "tensor",
    "linalg",  "scf",  "bufferization", "spmd"};

/// Ops of the allowed dialects that pcc cannot compile yet, each with what
/// to write instead: rejected up front, by name, rather than failing deep in
/// the pipeline.
static constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral>
    kUnsupportedOps[] = {
        {"tensor.gather", "index with tensor.extract in a linalg.generic"},
        {"tensor.scatter", "write with tensor.insert in an scf.for"},
        {"tensor.bitcast", "use arith.bitcast on the elements (linalg.map)"},
        {"bufferization.dealloc_tensor",
         "pcc frees every buffer once nothing reads it: remove the op"},
        {"bufferization.dealloc",
         "pcc frees every buffer once nothing reads it: remove the op"},
};

/// The libm functions that convert-math-to-libm emits (each also with an
/// `f` suffix, for f32).
static constexpr llvm::StringLiteral kMathFunctions[] = {
    "acos",  "acosh", "asin",      "asinh", "atan",  "atan2", "atanh", "cbrt",
    "ceil",  "cos",   "cosh",      "erf",   "erfc",  "exp",   "exp2",  "expm1",
    "floor", "fma",   "log",       "log10", "log1p", "log2",  "pow",   "round",
    "sin",   "sinh",  "roundeven", "sqrt",  "tan",   "tanh",  "trunc"};

/// Whether the lowered program may call the external function `name`: a
/// function of the runtime's ABI (the allocator among them) or one of a fixed
/// list of math functions.
static bool isAllowedExternal(StringRef name) {
  static const llvm::StringSet<> runtimeFunctions = [] {
    llvm::StringSet<> names;
    for (const std::string &name : pcc::abi::getRuntimeFunctionNames())
      names.insert(name);
    return names;
  }();
  if (runtimeFunctions.contains(name))
    return true;
  StringRef base = name.ends_with("f") ? name.drop_back() : name;
  return llvm::is_contained(kMathFunctions, name) ||
         llvm::is_contained(kMathFunctions, base);
}

/// The largest value pcc accepts: 2^48 bytes (256 TiB), more than any
/// machine's memory, and far from where sizes in bytes overflow.
static constexpr int64_t kMaxValueBytes = int64_t(1) << 48;

/// Whether pcc compiles values of element type `type`: integers, index and
/// the floats of every backend (f16, bf16, f32, f64). The 8-, 6- and 4-bit
/// floats and tf32 have no lowering to LLVM, f80 and f128 none to a GPU, and
/// complex and vector elements none at all.
/// The widths of integers that tensors and buffers may hold.
static constexpr unsigned kMemoryIntegerWidths[] = {1, 8, 16, 32, 64, 128};

static bool isSupportedElement(Type type) {
  return isa<IntegerType, IndexType, Float16Type, BFloat16Type, Float32Type,
             Float64Type>(type);
}

/// Whether pcc compiles values of `type`: tensors and buffers (their
/// elements are checked on their own), scalars of supported elements, and
/// functions of such values (func.constant). Vectors, tuples, complex
/// numbers and the like are not lowered.
static bool isSupportedValueType(Type type) {
  if (isa<TensorType, BaseMemRefType>(type))
    return true;
  if (auto function = dyn_cast<FunctionType>(type))
    return llvm::all_of(function.getInputs(), isSupportedValueType) &&
           llvm::all_of(function.getResults(), isSupportedValueType);
  return isSupportedElement(type);
}

/// The bytes a value of `type` takes if it is statically shaped (0 if not
/// shaped or dynamic), or nullopt if that is more than kMaxValueBytes: a
/// huge static shape would otherwise reach the allocator, or wrap around in
/// the allocation size and write out of bounds. The element type must be
/// supported.
static std::optional<int64_t> getStaticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  Type element = shaped.getElementType();
  unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  int64_t bytes = std::max<int64_t>(1, (bits + 7) / 8);
  for (int64_t size : shaped.getShape())
    if (llvm::MulOverflow(bytes, size, bytes) || bytes > kMaxValueBytes)
      return std::nullopt;
  return bytes;
}

/// `memoryLimit`: the largest value a program may use, 0 for no limit. Set
/// to 0 once a value is reported: the first is enough, and the ops that
/// compute into its buffer would repeat it.
static LogicalResult verifyInput(Operation *op, int64_t &memoryLimit) {
  auto checkType = [&](Type type) -> LogicalResult {
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && !isSupportedElement(shaped.getElementType()))
      return op->emitError()
             << "the type " << type << " has elements of type "
             << shaped.getElementType()
             << ", which pcc does not support (integers, index, f16, bf16, "
                "f32 and f64 only)";
    // MLIR and LLVM agree on the size in memory of these widths only (i65
    // takes 12 bytes to the one and 16 to the other: buffers were too
    // small).
    if (auto shaped = dyn_cast<ShapedType>(type))
      if (auto integer = dyn_cast<IntegerType>(shaped.getElementType());
          integer &&
          !llvm::is_contained(kMemoryIntegerWidths, integer.getWidth()))
        return op->emitError()
               << "the type " << type << " has elements of type " << integer
               << ", which pcc does not keep in memory (integers of 1, 8, "
                  "16, 32, 64 and 128 bits only); extend the values to a "
                  "wider one, or compute on scalars";
    if (!isSupportedValueType(type))
      return op->emitError()
             << "values of type " << type
             << " are not supported by pcc (tensors, buffers and scalars of "
                "integers, index, f16, bf16, f32 and f64, and functions of "
                "them)";
    if (getStaticBytes(type))
      return success();
    return op->emitError() << "the type " << type
                           << " is larger than any memory (more than 2^48 "
                              "bytes)";
  };
  for (OpResult result : op->getResults()) {
    if (failed(checkType(result.getType())))
      return failure();
    // A value the program uses is in memory whole at some point (a slice or
    // reshape is no larger than its source), so one larger than the limit
    // means the program cannot run. Arguments and results are checked with
    // the buffers the driver gives them.
    int64_t bytes = *getStaticBytes(result.getType());
    if (memoryLimit > 0 && bytes > memoryLimit && !result.use_empty()) {
      op->emitError() << "this value of type " << result.getType() << " takes "
                      << bytes << " bytes, more than the memory limit of "
                      << memoryLimit << " bytes (--memory-limit)";
      memoryLimit = 0;
      return failure();
    }
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Type type : block.getArgumentTypes())
        if (failed(checkType(type)))
          return failure();

  if (auto symbol =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())) {
    if (pcc::isReservedName(symbol.getValue()))
      return op->emitError() << "the name @" << symbol.getValue()
                             << " is reserved for pcc (names starting "
                                "with 'pcc_', '_pcc_' or '_mlir_'); "
                                "rename it";
  }
  // What pcc-outline-pmaps creates is not for programs to write.
  if (isa<pcc::spmd::LaunchOp, pcc::spmd::RuntimeCallOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is created by pcc; write an 'spmd.pmap' "
                              "and its collectives instead";
  for (NamedAttribute attribute : op->getAttrs())
    if (attribute.getName().getValue().starts_with("spmd."))
      return op->emitError()
             << "the attribute '" << attribute.getName().getValue()
             << "' is created by pcc; write an 'spmd.pmap' "
                "instead";
  for (auto [name, instead] : kUnsupportedOps)
    if (op->getName().getStringRef() == name)
      return op->emitError()
             << "'" << name << "' is not supported by pcc yet; " << instead;
  // Upstream decomposes packs and unpacks (pcc-decompose-linalg-ops) only
  // with static tiles and shapes, the Winograd transforms only with static
  // shapes, and those and softmax only on floats.
  SmallVector<OpFoldResult> tiles;
  if (auto pack = dyn_cast<linalg::PackOp>(op))
    tiles = pack.getMixedTiles();
  else if (auto unpack = dyn_cast<linalg::UnPackOp>(op))
    tiles = unpack.getMixedTiles();
  auto isDynamic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && !shaped.hasStaticShape();
  };
  if (isa<linalg::PackOp, linalg::UnPackOp>(op) &&
      (llvm::any_of(op->getOperandTypes(), isDynamic) ||
       llvm::any_of(tiles, [](OpFoldResult tile) { return isa<Value>(tile); })))
    return op->emitError() << "'" << op->getName()
                           << "' with dynamic tile sizes or shapes is not "
                              "supported by pcc yet; give it static inner "
                              "tiles and statically shaped operands";
  bool winograd =
      isa<linalg::WinogradFilterTransformOp, linalg::WinogradInputTransformOp,
          linalg::WinogradOutputTransformOp>(op);
  if (winograd && llvm::any_of(op->getOperandTypes(), isDynamic))
    return op->emitError() << "'" << op->getName()
                           << "' with dynamic shapes is not supported by pcc "
                              "yet; give it statically shaped operands";
  if ((winograd || isa<linalg::SoftmaxOp>(op)) &&
      !isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
    return op->emitError() << "'" << op->getName()
                           << "' on integers is not supported by pcc; "
                              "convert the operand to a float type first "
                              "(arith.sitofp)";
  // LLVM's fptrunc rounds to nearest even: another rounding mode would be
  // ignored (arith.truncf and arith.scaling_truncf name theirs).
  if (auto mode = op->getAttrOfType<arith::RoundingModeAttr>("roundingmode");
      mode && mode.getValue() != arith::RoundingMode::to_nearest_even)
    return op->emitError() << "'" << op->getName() << "' rounding "
                           << arith::stringifyRoundingMode(mode.getValue())
                           << " is not supported by pcc; it rounds to "
                              "nearest even only (omit the rounding mode)";
  // Upstream's lowering of the expansion's buffer crashes on a group with
  // two sizes known only at run time.
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    for (const ReassociationIndices &group : expand.getReassociationIndices())
      if (llvm::count_if(group, [&](int64_t axis) {
            return expand.getResultType().isDynamicDim(axis);
          }) > 1)
        return op->emitError()
               << "'" << op->getName()
               << "' that splits one axis into several whose sizes are "
                  "known only at run time is not supported by pcc yet; "
                  "give all but one of them static sizes";
  // A buffer whose layout is known but not the tensor's is a new one, and
  // the allocation of such a buffer does not lower.
  if (auto toBuffer = dyn_cast<bufferization::ToBufferOp>(op))
    if (auto type = dyn_cast<MemRefType>(toBuffer.getType());
        type && !type.getLayout().isIdentity()) {
      SmallVector<int64_t> strides;
      int64_t offset;
      bool strided = succeeded(type.getStridesAndOffset(strides, offset));
      bool contiguous = strided && type.hasStaticShape() && offset == 0 &&
                        strides == computeSuffixProduct(type.getShape());
      bool unknown = strided && ShapedType::isDynamic(offset) &&
                     llvm::all_of(strides, ShapedType::isDynamic);
      if (!contiguous && !unknown)
        return op->emitError()
               << "'" << op->getName() << "' into a buffer of layout "
               << type.getLayout()
               << " is not supported by pcc; ask for the tensor's own "
                  "layout (no layout attribute) or for any layout (all "
                  "strides and the offset '?')";
    }
  // Every device would write the one buffer: a race, which bufferization
  // reports only as a conflict it cannot avoid.
  if (auto materialize =
          dyn_cast<bufferization::MaterializeInDestinationOp>(op))
    if (auto pmap = op->getParentOfType<pcc::spmd::PmapOp>();
        pmap && !pmap->isAncestor(
                    materialize.getDest().getParentRegion()->getParentOp()))
      return op->emitError()
             << "'" << op->getName()
             << "' writes into a tensor defined outside the enclosing "
                "'spmd.pmap', which all its devices share; materialize "
                "into a tensor of the body instead (a tensor.empty, say)";
  StringRef dialect = op->getName().getDialectNamespace();
  if (!llvm::is_contained(kInputDialects, dialect))
    return op->emitError()
           << "'" << op->getName()
           << "' is not allowed in pcc programs: they may use the func, "
              "arith, math, tensor, linalg, scf, bufferization and spmd "
              "dialects";
  if (auto function = dyn_cast<func::FuncOp>(op);
      function && function.isExternal())
    return op->emitError()
           << "function @" << function.getSymName()
           << " is declared but not defined; pcc runs only code that the "
              "program defines, so give it a body";
  return success();
}

static LogicalResult verifyLowered(Operation *op) {
  // GPU kernels may call libdevice (`__nv_expf`, ...), which the NVPTX
  // serializer links into the binary, the device's vprintf (a kernel's
  // failed bounds check), and its heap's malloc and free (a buffer per
  // element, such as a copy of a tensor that a body writes); nothing there
  // reaches the host JIT.
  bool inGpuModule =
      op->getParentOp() &&
      op->getParentOp()->getName().getStringRef() == "gpu.module";
  if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
      function && function.isExternal() &&
      !isAllowedExternal(function.getSymName()) &&
      !(inGpuModule && (function.getSymName().starts_with("__nv_") ||
                        llvm::is_contained({"vprintf", "malloc", "free"},
                                           function.getSymName()))))
    return op->emitError() << "the lowered program calls the external "
                              "function @"
                           << function.getSymName()
                           << ", which is neither the pcc runtime nor an "
                              "allowed math function";
  if (isa<LLVM::InlineAsmOp>(op))
    return op->emitError() << "the lowered program contains inline assembly";
  // A global without an initializer is storage of the program's own (GPU
  // shared memory, say) unless its linkage lets the linker bind it
  // elsewhere.
  if (auto global = dyn_cast<LLVM::GlobalOp>(op);
      global && !global.getValueOrNull() && !global.getInitializerBlock() &&
      (global.getLinkage() == LLVM::Linkage::External ||
       global.getLinkage() == LLVM::Linkage::ExternWeak))
    return op->emitError() << "the lowered program refers to the external "
                              "global @"
                           << global.getSymName();
  return success();
}

namespace {
struct PCCVerifyClosedPass
    : public pcc::impl::PCCVerifyClosedBase<PCCVerifyClosedPass> {
  using PCCVerifyClosedBase::PCCVerifyClosedBase;

  void runOnOperation() override {
    bool failed = false;
    int64_t limit = memoryLimit;
    getOperation()->walk([&](Operation *op) {
      if (mlir::failed(lowered ? verifyLowered(op) : verifyInput(op, limit)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
