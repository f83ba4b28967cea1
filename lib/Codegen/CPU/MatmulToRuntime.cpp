//===- MatmulToRuntime.cpp - linalg.matmul as a call of the runtime's GEMM ===//
//
// On the cpu backend a linalg.matmul of f32 or f64 buffers whose rows are
// contiguous becomes a call of the runtime's blocked, vectorized GEMM
// (pcc_mlir_matmul_*, lib/Runtime/Gemm.cpp), as XLA's CPU backend calls
// Eigen. Other matmuls (integers, transposed maps, strided rows) stay linalg
// and become loops.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

namespace pcc {
#define GEN_PASS_DEF_PCCMATMULTORUNTIME
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

/// Whether `type` is a rank-2 memref of `element` whose rows are contiguous.
static bool hasContiguousRows(Type type, Type element) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != 2 || memref.getElementType() != element)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memref.getStridesAndOffset(strides, offset)) &&
         strides[1] == 1;
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
      if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
        continue;
      Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if (!element.isF32() && !element.isF64())
        continue;
      SmallVector<Value> operands(op->getOperands());
      if (!llvm::all_of(operands, [&](Value operand) {
            return hasContiguousRows(operand.getType(), element);
          }))
        continue;

      // One declaration per element type, on fully dynamic memrefs.
      MLIRContext *context = &getContext();
      auto matrixType = MemRefType::get(
          {ShapedType::kDynamic, ShapedType::kDynamic}, element,
          StridedLayoutAttr::get(context, ShapedType::kDynamic,
                                 {ShapedType::kDynamic, ShapedType::kDynamic}));
      std::string name = element.isF32() ? "pcc_mlir_matmul_f32"
                                         : "pcc_mlir_matmul_f64";
      auto callee = symbols.lookup<func::FuncOp>(name);
      if (!callee) {
        OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
        callee = func::FuncOp::create(
            builder, module.getLoc(), name,
            builder.getFunctionType({matrixType, matrixType, matrixType}, {}));
        callee.setPrivate();
        callee->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
        symbols.insert(callee);
      }
      OpBuilder builder(op);
      SmallVector<Value> args;
      for (Value operand : operands)
        args.push_back(
            memref::CastOp::create(builder, op.getLoc(), matrixType, operand));
      func::CallOp::create(builder, op.getLoc(), callee, args);
      op->erase();
    }
  }
};
} // namespace
