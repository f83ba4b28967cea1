// A program's own function may carry the name pcc would give a launch thunk;
// the thunk is renamed and the program computes the right thing.
// RUN: pcc run %s | FileCheck %s
// CHECK: [2. 2.]
func.func @main_pmap_thunk(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}

func.func @main() -> tensor<2xf32> {
  %r = spmd.pmap "i" size 2 -> (tensor<2xf32>) {
    %one = arith.constant 1.0 : f32
    %s = spmd.psum %one over "i" : f32
    spmd.yield %s : f32
  }
  return %r : tensor<2xf32>
}
