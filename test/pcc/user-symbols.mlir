// A program's own functions cannot receive the calls that generated code
// makes by name: its @expf is not what math.exp computes, its @memcpy and
// @memset do not do pcc's copies (they used to: results came out as zeros),
// under `pcc run` and in compiled executables. Its own calls still reach its
// own functions, whatever their names.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/one.npy', np.float32(1.0)); np.save('%t/x.npy', np.ones((2, 256), np.float32))"
// RUN: pcc run %s -e exp %t/one.npy | FileCheck %s --check-prefix=EXP
// RUN: pcc compile %s -e exp -o %t/exp && %t/exp %t/one.npy | FileCheck %s --check-prefix=EXP
// RUN: pcc run %s -e copies %t/x.npy | FileCheck %s --check-prefix=COPIES
// RUN: pcc compile %s -e copies -o %t/copies && %t/copies %t/x.npy | FileCheck %s --check-prefix=COPIES
// RUN: pcc run %s -e own_calls %t/one.npy | FileCheck %s --check-prefix=OWN
// RUN: pcc-opt %s --pcc-rename-user-symbols | FileCheck %s --check-prefix=NAMES

// EXP: 2.7182817
// EXP-NEXT: 42.0
func.func @expf(%x: f32) -> f32 {
  %c = arith.constant 42.0 : f32
  return %c : f32
}
func.func @exp(%x: f32) -> (f32, f32) {
  %e = math.exp %x : f32
  %own = func.call @expf(%x) : (f32) -> f32
  return %e, %own : f32, f32
}

// psum of two rows of ones: 2 everywhere, then row 1 copied out.
// COPIES-COUNT-22: {{^.*}}2. 2.
// COPIES-NOT: 0.
func.func @memcpy(%a: i64, %b: i64, %n: i64) -> i64 {
  return %a : i64
}
func.func @memset(%a: i64, %b: i32, %n: i64) -> i64 {
  return %a : i64
}
func.func @copies(%x: tensor<2x256xf32>) -> (tensor<2x256xf32>, tensor<256xf32>) {
  %r = spmd.pmap "i" (%y = %x : tensor<2x256xf32>) -> tensor<2x256xf32> {
    %s = spmd.psum %y over "i" : tensor<256xf32>
    spmd.yield %s : tensor<256xf32>
  }
  %row = tensor.extract_slice %r[1, 0] [1, 256] [1, 1] : tensor<2x256xf32> to tensor<256xf32>
  return %r, %row : tensor<2x256xf32>, tensor<256xf32>
}

// A function named like another's new name: f becomes u.f, u.f becomes
// u.u.f, and each call still reaches its own callee (1 + 10 = 11).
// OWN: 11.0
// NAMES-DAG: func.func @u.f(
// NAMES-DAG: func.func @u.u.f(
// NAMES-DAG: func.func @u.own_calls(
// NAMES: call @u.f(
// NAMES-NEXT: call @u.u.f(
func.func @f(%x: f32) -> f32 {
  return %x : f32
}
func.func @"u.f"(%x: f32) -> f32 {
  %c = arith.constant 10.0 : f32
  return %c : f32
}
func.func @own_calls(%x: f32) -> f32 {
  %a = func.call @f(%x) : (f32) -> f32
  %b = func.call @"u.f"(%x) : (f32) -> f32
  %s = arith.addf %a, %b : f32
  return %s : f32
}
