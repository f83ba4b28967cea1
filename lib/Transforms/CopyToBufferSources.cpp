//===- CopyToBufferSources.cpp - a buffer of its own per to_buffer --------===//
//
// Each bufferization.to_buffer reads a copy of its tensor, so that writes
// into its buffer never reach the tensor. See the pass description in
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCOPYTOBUFFERSOURCES
#include "pcc/Transforms/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCopyToBufferSourcesPass
    : public pcc::impl::PCCCopyToBufferSourcesBase<PCCCopyToBufferSourcesPass> {
  void runOnOperation() override {
    getOperation()->walk([](bufferization::ToBufferOp toBuffer) {
      Value tensor = toBuffer.getTensor();
      auto type = dyn_cast<RankedTensorType>(tensor.getType());
      if (!type)
        return;
      OpBuilder builder(toBuffer);
      Value copy = bufferization::AllocTensorOp::create(
          builder, toBuffer.getLoc(), type, /*dynamicSizes=*/ValueRange(),
          tensor);
      toBuffer.getTensorMutable().assign(copy);
    });
  }
};
} // namespace
