//===- Passes.td - pcc's transformations of spmd programs ----------------===//
//
// Passes that rewrite spmd programs on tensors towards what the backends
// lower. The descriptions are the pass reference in docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_TRANSFORMS_PASSES_TD
#define PCC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SPMDExpandPmean : Pass<"spmd-expand-pmean"> {
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
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif // PCC_TRANSFORMS_PASSES_TD
