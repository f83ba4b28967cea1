//===- Passes.td - every pass of pcc, for the pass reference -*- tablegen -*-===//
//
// docs/passes.md is generated from this file: the passes in the order a
// program meets them, folder by folder.
//
//===----------------------------------------------------------------------===//

include "pcc/Transforms/Passes.td"
include "pcc/Dialect/SPMD/Transforms/Passes.td"
include "pcc/Conversion/Passes.td"
include "pcc/Codegen/CPU/Passes.td"
include "pcc/Codegen/CUDA/Passes.td"
