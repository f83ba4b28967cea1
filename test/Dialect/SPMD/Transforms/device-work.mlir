// RUN: pcc-opt %s --pcc-outline-pmaps | FileCheck %s

// pcc-outline-pmaps gives each launch the elements one device reads and
// writes, counted by hand below: an op counts its results (views and
// constants nothing), a collective the inputs of every device and its
// result, a linalg op its iteration points times its operands, a write
// into a buffer what it stores, and a loop its body times its trips. It
// also marks the results that every device yields alike (a psum's; a loop's
// that starts from each device's own value is not, conservatively).

// axis_index 1 + mulf 8 + psum (4 * 8 + 8) + the write of 8 = 57.
// CHECK-LABEL: func @elementwise
// CHECK: spmd.launch @elementwise_pmap devices 4(%{{.*}}) outs(%{{.*}}) {uniform_outputs = array<i1: true>, work = 57 : i64}
func.func @elementwise(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x8xf32>) -> (tensor<4x8xf32>) {
    %y = arith.mulf %x, %x : tensor<8xf32>
    %s = spmd.psum %y over "i" : tensor<8xf32>
    spmd.yield %s : tensor<8xf32>
  }
  return %r : tensor<4x8xf32>
}

// axis_index 1 + 10 trips of psum (2 * 4 + 4) + the write of 4 = 125.
// CHECK-LABEL: func @static_loop
// CHECK: spmd.launch @static_loop_pmap devices 2(%{{.*}}) outs(%{{.*}}) {uniform_outputs = array<i1: false>, work = 125 : i64}
func.func @static_loop(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %s = scf.for %k = %c0 to %c10 step %c1 iter_args(%v = %x) -> (tensor<4xf32>) {
      %t = spmd.psum %v over "i" : tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    }
    spmd.yield %s : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// axis_index 1 + fill (64 points, 2 operands) 128 + matmul (8 * 8 * 8
// points, 3 operands) 1536 + the write of 64 = 1729.
// CHECK-LABEL: func @matmul
// CHECK: spmd.launch @matmul_pmap devices 2(%{{.*}}) outs(%{{.*}}) {uniform_outputs = array<i1: false>, work = 1729 : i64}
func.func @matmul(%a: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x8x8xf32>) -> (tensor<2x8x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %m = linalg.matmul ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>)
                       outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    spmd.yield %m : tensor<8x8xf32>
  }
  return %r : tensor<2x8x8xf32>
}

// 2^31 * 2^31 trips of 12 elements overflow: the count saturates.
// CHECK-LABEL: func @saturates
// CHECK: spmd.launch @saturates_pmap devices 2(%{{.*}}) outs(%{{.*}}) {uniform_outputs = array<i1: false>, work = 9223372036854775807 : i64}
func.func @saturates(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 2147483648 : index
    %s = scf.for %k = %c0 to %big step %c1 iter_args(%v = %x) -> (tensor<4xf32>) {
      %u = scf.for %l = %c0 to %big step %c1 iter_args(%w = %v) -> (tensor<4xf32>) {
        %t = spmd.psum %w over "i" : tensor<4xf32>
        scf.yield %t : tensor<4xf32>
      }
      scf.yield %u : tensor<4xf32>
    }
    spmd.yield %s : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// A trip count known only at run time: no estimate, and the runtime uses
// every thread.
// CHECK-LABEL: func @dynamic_loop
// CHECK: spmd.launch @dynamic_loop_pmap devices 2(%{{[^)]*}}) outs(%{{[^)]*}}) {uniform_outputs = array<i1: false>} :
func.func @dynamic_loop(%a: tensor<2x4xf32>, %n: index) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<4xf32>) {
      %t = spmd.psum %v over "i" : tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    }
    spmd.yield %s : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// A call: what the callee does is not counted, so there is no estimate.
// CHECK-LABEL: func @calls
// CHECK: spmd.launch @calls_pmap devices 2(%{{[^)]*}}) outs(%{{[^)]*}}) {uniform_outputs = array<i1: false>} :
func.func private @helper(%v: tensor<4xf32>) -> tensor<4xf32> {
  %d = arith.addf %v, %v : tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @calls(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %y = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}
