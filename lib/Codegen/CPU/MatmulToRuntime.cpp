//===- MatmulToRuntime.cpp - linalg.matmul as a call of the runtime's GEMM ===//
//
// On the cpu backend a linalg.matmul of f32 or f64 buffers becomes a call of
// the runtime's GEMM (pcc_mlir_matmul_*, lib/Runtime/CPU: OpenBLAS's or its
// own), as XLA's CPU backend calls Eigen, where the result's rows are
// contiguous and each operand's rows or columns are. An operand that the
// matmul's indexing maps transpose is passed as a transposed view (memref.
// transpose), which the runtime reads in place. A matmul right after a fill
// of its result with zeros overwrites the result instead (BLAS's beta = 0),
// and the fill goes. Other matmuls (integers, broadcast maps, strided
// operands) stay linalg and become loops.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace pcc {
#define GEN_PASS_DEF_PCCMATMULTORUNTIME
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Whether `type` is a rank-2 memref of `element` whose rows are contiguous
/// or, with `columns`, whose rows or columns are.
static bool isContiguous(Type type, Type element, bool columns) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != 2 || memref.getElementType() != element)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memref.getStridesAndOffset(strides, offset)) &&
         (strides[1] == 1 || (columns && strides[0] == 1));
}

/// Which of A and B the indexing maps of `op` transpose (A read as (k, m), B
/// as (n, k)); nothing where they are not a matmul's maps, transposed or not.
static std::optional<std::pair<bool, bool>>
transposedOperands(linalg::MatmulOp op) {
  if (!op.hasUserDefinedMaps())
    return std::make_pair(false, false);
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto map = [&](AffineExpr row, AffineExpr column) {
    return AffineMap::get(3, 0, {row, column}, context);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != map(m, n) ||
      (maps[0] != map(m, k) && maps[0] != map(k, m)) ||
      (maps[1] != map(k, n) && maps[1] != map(n, k)))
    return std::nullopt;
  return std::make_pair(maps[0] == map(k, m), maps[1] == map(n, k));
}

/// The fill of `result` with +0.0 that `op` accumulates into, if nothing
/// between them touches memory but allocations and frees (of other buffers:
/// `op` uses `result` after them): the matmul may then write its product
/// over the result instead.
static linalg::FillOp zeroFillBefore(Operation *op, Value result) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      return fill.hasPureBufferSemantics() &&
                     fill.getDpsInits()[0] == result &&
                     matchPattern(fill.value(), m_PosZeroFloat())
                 ? fill
                 : nullptr;
    if (!isMemoryEffectFree(prev) &&
        !isa<memref::AllocOp, memref::DeallocOp>(prev))
      return nullptr;
  }
  return nullptr;
}

namespace {
struct PCCMatmulToRuntimePass
    : public pcc::impl::PCCMatmulToRuntimeBase<PCCMatmulToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    for (linalg::MatmulOp op : matmuls) {
      std::optional<std::pair<bool, bool>> transposed = transposedOperands(op);
      if (!op.hasPureBufferSemantics() || !transposed)
        continue;
      Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if (!element.isF32() && !element.isF64())
        continue;
      SmallVector<Value> operands(op->getOperands());
      if (!isContiguous(operands[0].getType(), element, true) ||
          !isContiguous(operands[1].getType(), element, true) ||
          !isContiguous(operands[2].getType(), element, false))
        continue;

      // One declaration per element type, on fully dynamic memrefs.
      MLIRContext *context = &getContext();
      auto matrixType = MemRefType::get(
          {ShapedType::kDynamic, ShapedType::kDynamic}, element,
          StridedLayoutAttr::get(context, ShapedType::kDynamic,
                                 {ShapedType::kDynamic, ShapedType::kDynamic}));
      std::string name =
          element.isF32() ? "pcc_mlir_matmul_f32" : "pcc_mlir_matmul_f64";
      auto callee = symbols.lookup<func::FuncOp>(name);
      if (!callee) {
        OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
        callee = func::FuncOp::create(
            builder, module.getLoc(), name,
            builder.getFunctionType(
                {matrixType, matrixType, matrixType, builder.getI32Type()},
                {}));
        callee.setPrivate();
        callee->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
        symbols.insert(callee);
      }
      OpBuilder builder(op);
      auto swap = AffineMapAttr::get(
          AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, context));
      if (transposed->first)
        operands[0] = memref::TransposeOp::create(builder, op.getLoc(),
                                                  operands[0], swap);
      if (transposed->second)
        operands[1] = memref::TransposeOp::create(builder, op.getLoc(),
                                                  operands[1], swap);
      SmallVector<Value> args;
      for (Value operand : operands)
        args.push_back(
            memref::CastOp::create(builder, op.getLoc(), matrixType, operand));
      linalg::FillOp zeros = zeroFillBefore(op, operands[2]);
      args.push_back(arith::ConstantIntOp::create(builder, op.getLoc(),
                                                  zeros ? 0 : 1, 32));
      func::CallOp::create(builder, op.getLoc(), callee, args);
      op->erase();
      if (zeros)
        zeros->erase();
    }
  }
};
} // namespace
