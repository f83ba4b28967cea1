// RUN: pcc-opt %s -verify-diagnostics --pcc-lower-collectives

func.func private @device(%device: i64, %x: f32) -> f32
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  // expected-error @+1 {{'spmd.pmean' op must be expanded by pcc-expand-pmean before collectives are lowered}}
  %m = spmd.pmean %x over "i" : f32
  return %m : f32
}
