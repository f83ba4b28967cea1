//===- ScopeKernelLaunches.cpp - a stack scope around each kernel launch --===//
//
// The cuda backend's host code: each gpu.launch_func in a
// memref.alloca_scope, so that the stack slots of its arguments are freed
// when it returns. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace pcc {
#define GEN_PASS_DEF_PCCSCOPEKERNELLAUNCHES
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCScopeKernelLaunchesPass
    : public pcc::impl::PCCScopeKernelLaunchesBase<
          PCCScopeKernelLaunchesPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchFuncOp> launches;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      // Launches made by asynchronous tokens would need their token out of
      // the scope; pcc's launches are synchronous.
      if (launch->getNumResults() == 0)
        launches.push_back(launch);
    });
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder builder(launch);
      auto scope =
          memref::AllocaScopeOp::create(builder, launch.getLoc(), TypeRange());
      Block *body = &scope.getBodyRegion().emplaceBlock();
      builder.setInsertionPointToStart(body);
      memref::AllocaScopeReturnOp::create(builder, launch.getLoc(),
                                          ValueRange());
      launch->moveBefore(&body->front());
    }
  }
};
} // namespace
