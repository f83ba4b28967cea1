//===- Passes.td - the spmd dialect's own transformations --*- tablegen -*-===//
//
// Rewrites within the spmd dialect: pmean into psum, and pmap bodies into
// device functions that spmd.launch runs on a flattened grid.
// The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_DIALECT_SPMD_TRANSFORMS_PASSES_TD
#define PCC_DIALECT_SPMD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PCCExpandPmean : Pass<"pcc-expand-pmean"> {
  let summary = "Rewrite spmd.pmean as spmd.psum and a division";
  let description = [{
    A mean over N devices is their sum divided by N (JAX defines
    `lax.pmean` the same way), so the backends only implement sums. The
    division happens in the operand's own type, as in JAX.

    ```mlir
    // before, inside a pmap of 4 devices
    %m = spmd.pmean %x over "i" : tensor<3xf32>
    // after
    %s = spmd.psum %x over "i" : tensor<3xf32>
    %n = arith.constant dense<4.000000e+00> : tensor<3xf32>
    %m = arith.divf %s, %n : tensor<3xf32>
    ```

    With `groups` of different sizes, each device divides by the size of
    its own group, looked up by its `spmd.axis_index`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def PCCOutlinePmaps : Pass<"pcc-outline-pmaps", "mlir::ModuleOp"> {
  let summary = "Outline pmap bodies into device functions run on a grid";
  let description = [{
    Each outermost `spmd.pmap` becomes a device function and an
    `spmd.launch` that runs it on every device. Nested pmaps are flattened
    into one row-major grid: an inner pmap over `"j"` becomes inline code
    whose mapped operands are sliced at `spmd.axis_index "j"` and whose
    results are `spmd.all_gather ... over "j"` of what it yielded. Code of
    the outer body then runs on every `"j"` device alike, which is correct
    because it is deterministic and its collectives group devices that agree
    on `"j"`. The grid has every axis of the nest (`PmapOp::getNestAxes`):
    sibling inner pmaps over `"j"` and `"k"` each add one, and the code of
    either runs alike on every position of the other.

    The device function takes its linear device index (`i64`), the whole
    mapped operands and captured values as memrefs (a scalar as a rank-0
    memref), and one output memref per result, and names its grid in
    `spmd.grid_axes` / `spmd.grid_sizes`. Devices whose inner coordinates are
    all 0 write their slice of each output: the output is read as a tensor
    at the entry, the slice inserted with `tensor.insert_slice`, and the
    whole stored back with `bufferization.materialize_in_destination` (in
    place, after bufferization), so that bufferization sees every write into
    an output. The launch is in destination-passing style on tensors and
    carries `work`, the elements one device reads and writes, where they can
    be counted (static shapes and trip counts, no calls): the runtime runs
    small launches on one thread.

    ```mlir
    // before
    %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4xf32>) {...}
    // after
    %init = tensor.empty() : tensor<4xf32>
    %r = spmd.launch @main_pmap devices 4(%a) outs(%init) {work = 15 : i64}
        : (tensor<4x3xf32>) -> tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

#endif // PCC_DIALECT_SPMD_TRANSFORMS_PASSES_TD
