//===- Pipelines.h - the pass pipelines that pcc runs -----------*- C++ -*-===//
//
// One pipeline builder per backend. `pcc` calls them, and they are
// registered as named pipelines for `pcc-opt`, so that lit tests exercise
// exactly what the driver runs.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_PIPELINES_PIPELINES_H
#define PCC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace pcc {

/// Options of the host (cpu) backend pipeline.
struct CpuPipelineOptions
    : public mlir::PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<std::string> entry{*this, "entry",
                                         llvm::cl::desc("The entry function"),
                                         llvm::cl::init("main")};
};

/// Lowers a verified spmd program on tensors to the LLVM dialect for the
/// host backend, where every device is a thread of the pcc runtime. The
/// entry function is wrapped as `@_pcc_entry` (see the pcc-entry-abi pass).
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// Registers the dialects programs may use (SPEC §1), and every dialect,
/// interface and extension the pipelines need. pcc and pcc-opt share it.
void registerDialects(mlir::DialectRegistry &registry);

/// Registers `pcc-cpu-pipeline` for pcc-opt, and each upstream pass it uses.
void registerPipelines();

} // namespace pcc

#endif // PCC_PIPELINES_PIPELINES_H
