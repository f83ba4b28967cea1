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

/// The options both backends' pipelines take.
template <typename Derived>
struct CommonPipelineOptions : public mlir::PassPipelineOptions<Derived> {
  using Base = mlir::PassPipelineOptions<Derived>;
  typename Base::template Option<std::string> entry{
      *this, "entry", llvm::cl::desc("The entry function"),
      llvm::cl::init("main")};
  typename Base::template Option<int64_t> memoryLimit{
      *this, "memory-limit",
      llvm::cl::desc("Reject a program with a value of more bytes than this "
                     "(pcc run's --memory-limit; 0: no limit)"),
      llvm::cl::init(0)};
};

/// Options of the host (cpu) backend pipeline.
struct CpuPipelineOptions : public CommonPipelineOptions<CpuPipelineOptions> {};

/// Options of the cuda backend pipeline.
struct CudaPipelineOptions : public CommonPipelineOptions<CudaPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU architecture of the cubin"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("The CUDA toolkit (for ptxas)"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("How kernels are embedded: fatbin (cubin for the chip "
                     "plus PTX) or isa (PTX only)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<bool> simulate{
      *this, "simulate",
      llvm::cl::desc("Compile the kernels for the simulated GPU "
                     "(--backend=cuda-sim): as host functions, not cubin"),
      llvm::cl::init(false)};
};

/// Lowers a verified spmd program on tensors for the cuda backend: as for
/// the cpu backend down to buffers (in CUDA managed memory), then every loop
/// nest of linalg ops as a GPU kernel, compiled through NVVM into a fatbin
/// (cubin for `chip` and PTX) or PTX alone, embedded as `gpu.binary`; the
/// host code launches kernels with `gpu.launch_func` and collectives through
/// the runtime (NCCL, or pcc's own kernels). With `simulate`, the kernels are
/// host functions instead, launched through the same runtime calls, for the
/// simulated GPU.
void buildCudaPipeline(mlir::OpPassManager &pm,
                       const CudaPipelineOptions &options);

/// Lowers a verified spmd program on tensors to the LLVM dialect for the
/// host backend, where every device is a thread of the pcc runtime. The
/// entry function is wrapped as `@_pcc_entry` (see the pcc-entry-abi pass).
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// The stack of the threads that parse and compile programs (pcc, pcc-opt):
/// the parser and many passes recurse once per level of nesting. Its pages
/// are committed only as they are touched.
constexpr unsigned kCompilerStackSize = 512u << 20;

/// Registers the dialects programs may use, and every dialect, interface and
/// extension the pipelines need. pcc and pcc-opt share it.
void registerDialects(mlir::DialectRegistry &registry);

/// Registers `pcc-cpu-pipeline` and `pcc-cuda-pipeline` for pcc-opt, with
/// every pass they use, pcc's and upstream's, so that any stage runs alone.
void registerPipelines();

} // namespace pcc

#endif // PCC_PIPELINES_PIPELINES_H
