//===- Passes.td - code generation for the cpu backend -----*- tablegen -*-===//
//
// How the cpu backend turns buffers of linalg ops into fast loops: matmuls
// as runtime GEMM calls, strided copies as loops, reductions reassociated
// for vectorization.
// The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_CODEGEN_CPU_PASSES_TD
#define PCC_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def PCCMatmulToRuntime : Pass<"pcc-matmul-to-runtime", "mlir::ModuleOp"> {
  let summary = "Call the runtime's GEMM for linalg.matmul on f32 and f64 buffers";
  let description = [{
    On the cpu backend, replaces each `linalg.matmul` on f32 or f64 memrefs
    whose rows are contiguous (innermost stride 1) and whose indexing maps
    are the default ones by a call of `pcc_mlir_matmul_f32` / `_f64`, the
    runtime's blocked and vectorized GEMM (C += A * B), the way XLA's CPU
    backend calls Eigen. Other matmuls are left to become loops.

    ```mlir
    // before
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    // after
    %0 = memref.cast %a : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @pcc_mlir_matmul_f32(%0, %1, %2) : (...) -> ()
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def PCCLowerStridedCopies : Pass<"pcc-lower-strided-copies",
                                 "mlir::func::FuncOp"> {
  let summary = "Turn copies between non-contiguous buffers into linalg.copy";
  let description = [{
    `memref.copy` between contiguous buffers lowers to `memcpy`; any other
    (a column of a matrix, say) would call MLIR's `memrefCopy` runtime
    function, which the closed JIT does not allow (see
    `pcc-verify-closed`). This pass makes those copies `linalg.copy`, which
    lowers to loops like any other linalg op.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def PCCReassociateReductions : Pass<"pcc-reassociate-reductions",
                                    "mlir::func::FuncOp"> {
  let summary = "Allow float reductions to be reordered, so that they vectorize";
  let description = [{
    Marks `arith.addf` and `arith.mulf` in the bodies of linalg ops with a
    reduction loop `reassoc`, so that LLVM may split a sum or product into
    several partial results (vector lanes, interleaved accumulators) instead
    of a chain of dependent operations. The result's rounding then depends
    on the vector width, as it does under XLA; elementwise ops and
    collectives are not affected (collectives reduce in rank order).

    ```mlir
    linalg.reduce ins(%x : memref<4x1024xf32>) outs(%s : memref<4xf32>)
        dimensions = [1]
      (%in: f32, %acc: f32) {
        %0 = arith.addf %in, %acc fastmath<reassoc> : f32
        linalg.yield %0 : f32
      }
    ```
  }];
}

#endif // PCC_CODEGEN_CPU_PASSES_TD
