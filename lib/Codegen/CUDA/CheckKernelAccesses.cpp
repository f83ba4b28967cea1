//===- CheckKernelAccesses.cpp - Bounds checks in GPU kernels ------------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "pcc/Codegen/CUDA/Passes.h"

#include "KernelChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace pcc {
#define GEN_PASS_DEF_PCCCHECKKERNELACCESSES
#include "pcc/Codegen/CUDA/Passes.h.inc"
} // namespace pcc

using namespace mlir;

namespace {
struct PCCCheckKernelAccessesPass
    : public pcc::impl::PCCCheckKernelAccessesBase<PCCCheckKernelAccessesPass> {
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      std::string name = kernel.getName().str();
      pcc::checkKernelAccesses(kernel.getBody(), [&](OpBuilder &b, Location loc,
                                                     StringRef site, Value axis,
                                                     Value index, Value bound) {
        // printf's format is the message: '%' in it is escaped.
        std::string format = "pcc runtime error: GPU kernel '" + name +
                             "', block (%u, %u, %u), thread (%u, %u, "
                             "%u): ";
        for (char c : site) {
          format += c;
          if (c == '%')
            format += '%';
        }
        format += ": index %lld is out of bounds for axis %lld with size "
                  "%lld\n";
        SmallVector<Value> args;
        for (auto dim :
             {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
          args.push_back(arith::IndexCastUIOp::create(
              b, loc, b.getI32Type(), gpu::BlockIdOp::create(b, loc, dim)));
        for (auto dim :
             {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
          args.push_back(arith::IndexCastUIOp::create(
              b, loc, b.getI32Type(), gpu::ThreadIdOp::create(b, loc, dim)));
        args.append({axis, index, bound});
        gpu::PrintfOp::create(b, loc, format, args);
        // The launch fails; the runtime names the kernel at the next
        // synchronization and ends the run.
        LLVM::Trap::create(b, loc);
      });
    }
  }
};
} // namespace
