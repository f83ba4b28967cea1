// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-generate-runtime-checks

// Indexing whose values pcc cannot bound without overflow, on an operand
// whose size is known only at run time.
func.func @main(%x: tensor<?xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'linalg.generic' indexes operand #0 with 'd0 * 6148914691236517206', which pcc cannot check at run time for operands whose sizes are known only then; give the operands static shapes}}
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 6148914691236517206)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%p: f32, %z: f32):
      linalg.yield %p : f32
  } -> tensor<4xf32>
  return %o : tensor<4xf32>
}
