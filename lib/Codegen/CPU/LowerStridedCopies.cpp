//===- LowerStridedCopies.cpp - non-contiguous copies as linalg.copy ------===//
//
// memref.copy lowers to memcpy when both buffers are contiguous and to a
// call of MLIR's memrefCopy otherwise; pcc's closed JIT allows no such call,
// so the latter become linalg.copy, i.e. loops.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace pcc {
#define GEN_PASS_DEF_PCCLOWERSTRIDEDCOPIES
#include "pcc/Codegen/CPU/Passes.h.inc"
} // namespace pcc

using namespace mlir;

static bool isContiguous(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref::isStaticShapeAndContiguousRowMajor(memref);
}

namespace {
struct PCCLowerStridedCopiesPass
    : public pcc::impl::PCCLowerStridedCopiesBase<PCCLowerStridedCopiesPass> {
  void runOnOperation() override {
    getOperation()->walk([](memref::CopyOp copy) {
      if (isContiguous(copy.getSource().getType()) &&
          isContiguous(copy.getTarget().getType()))
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy->erase();
    });
  }
};
} // namespace
