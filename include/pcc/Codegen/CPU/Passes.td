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
    by a call of `pcc_mlir_matmul_f32` / `_f64`, the runtime's GEMM (C += A
    * B: the system's OpenBLAS, or pcc's own), the way XLA's CPU backend
    calls Eigen. The result's rows must be contiguous (innermost stride 1)
    and each operand's rows or columns; indexing maps may transpose A
    (`(m, n, k) -> (k, m)`) and B (`-> (n, k)`), which are then passed as
    `memref.transpose` views and read in place. The last argument says
    whether the product is added to C (1) or written over it (0, BLAS's
    beta = 0): a matmul right after a `linalg.fill` of C with +0.0, with
    nothing between them that touches memory but allocations and frees of
    other buffers, writes over C, and the fill is dropped. Other matmuls
    (integers, broadcast maps, operands strided both ways) are left to
    become loops.

    ```mlir
    // before
    linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    // after
    %0 = memref.cast %a : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    %c0_i32 = arith.constant 0 : i32
    call @pcc_mlir_matmul_f32(%0, %1, %2, %c0_i32) : (...) -> ()
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
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
    Marks `reassoc` the `arith.addf` and `arith.mulf` ops that fold values
    into the accumulator of a linalg op with a reduction loop (those reached
    from an init's block argument through additions and multiplications),
    so that LLVM may split a sum or product into several partial results
    (vector lanes, interleaved accumulators) instead of a chain of dependent
    operations. The result's rounding then depends on the vector width, as
    it does under XLA; the rest of the body (`x * c` before it is summed, an
    elementwise op fused into the reduction), elementwise ops and
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

def PCCOutlineSegments : Pass<"pcc-outline-segments", "mlir::ModuleOp"> {
  let summary = "Move the work of a large function into small functions of their own";
  let description = [{
    Keeps compile time linear in the size of a program. In a function of
    more than `min-ops` ops (a pmap body with hundreds of collectives, say),
    each run of ops between pmap launches and stack allocations that does
    work (a loop, a linalg op, a runtime call) moves into private functions
    of their own, `noinline` for LLVM, of at most `max-segment-ops` ops
    each. Lowering and LLVM's optimizer then see many small functions, as
    XLA compiles each fusion separately, instead of one whose blocks and
    live ranges grow with the program, where several passes cost more per
    op the longer the function is (instruction selection of one long block,
    register allocation across hundreds of loops, block splitting in
    `convert-scf-to-cf`). Constants the run reads are cloned into it, so
    that its loop bounds stay constants; the values it reads otherwise
    become arguments, and the values later ops read become results. An op
    larger than a piece stays, and its regions are outlined in turn.
    Smaller functions are left alone, so that the code of ordinary
    programs does not change.

    ```mlir
    // before, in a function of many ops
    linalg.generic ... ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {...}
    spmd.runtime_call @pcc_mlir_all_reduce_f32(%d, ..., %b) outs(%c)
    %s = memref.alloca() : memref<8xf32>
    ...
    // after
    call @main_pmap_segment0(%a, %b, %c, %d) : (...) -> ()
    %s = memref.alloca() : memref<8xf32>
    ...
    func.func private @main_pmap_segment0(%a: memref<8xf32>, ...)
        attributes {passthrough = ["noinline"]} {
      linalg.generic ... ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {...}
      spmd.runtime_call @pcc_mlir_all_reduce_f32(%d, ..., %b) outs(%c)
      return
    }
    ```
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"2000",
           "Outline in functions of more ops than this">,
    Option<"maxSegmentOps", "max-segment-ops", "int64_t", /*default=*/"60",
           "Cut runs into segments of at most this many ops">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def PCCFreeBuffersEarly : Pass<"pcc-free-buffers-early", "mlir::func::FuncOp"> {
  let summary = "Free each buffer right after its last use";
  let description = [{
    Ownership-based buffer deallocation frees the buffers a block owns
    together, at the block's end, in one `bufferization.dealloc`. In a pmap
    body of many steps every temporary then lives until the body returns
    (peak memory the sum of all of them, not the largest set alive at
    once), and the dealloc op that lists them all makes the passes after it
    cost time in the square of their number. Runs right after
    `ownership-based-buffer-deallocation`, before any canonicalization
    sees that op: each buffer of a dealloc without retained values that
    its block allocated and certainly owns (condition `true`; named by
    the allocation or by its base buffer, `memref.extract_strided_metadata`)
    is freed by a `memref.dealloc` right after the last op of the block
    that uses it or any memref made from it (views, casts, results of ops
    and regions that take it). A buffer whose alias leaves the block
    stays in the dealloc. On the cpu backend only, where every op that
    uses a buffer has finished with it when it returns (GPU kernels run
    asynchronously).

    ```mlir
    %a = memref.alloc() : memref<8xf32>
    linalg.generic ... outs(%a : memref<8xf32>)
    %b = memref.alloc() : memref<8xf32>
    spmd.runtime_call @pcc_mlir_all_reduce_f32(..., %a) outs(%b)
    linalg.generic ... outs(%b : memref<8xf32>)
    bufferization.dealloc (%a, %b : ...) if (%true, %true)
    // becomes
    spmd.runtime_call @pcc_mlir_all_reduce_f32(..., %a) outs(%b)
    memref.dealloc %a : memref<8xf32>
    linalg.generic ... outs(%b : memref<8xf32>)
    memref.dealloc %b : memref<8xf32>
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

#endif // PCC_CODEGEN_CPU_PASSES_TD
