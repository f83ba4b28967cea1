// Collectives under control flow that every device of their axes takes the
// same way are accepted: the verifier's uniformity analysis proves it.
// RUN: pcc-opt %s | FileCheck %s

// Branching on a psum result: every device sees the same total.
// CHECK-LABEL: func @branch_on_psum
func.func @branch_on_psum(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4xf32>) -> (tensor<4xf32>) {
    %total = spmd.psum %x over "i" : tensor<f32>
    %t = tensor.extract %total[] : tensor<f32>
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %t, %zero : f32
    // CHECK: scf.if
    // CHECK: spmd.pmax
    %y = scf.if %positive -> tensor<f32> {
      %m = spmd.pmax %x over "i" : tensor<f32>
      scf.yield %m : tensor<f32>
    } else {
      scf.yield %x : tensor<f32>
    }
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// A loop whose bounds are constants, with per-device loop-carried data.
// CHECK-LABEL: func @uniform_loop
func.func @uniform_loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4xf32>) -> (tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    // CHECK: scf.for
    // CHECK: spmd.psum
    %y = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %x) -> tensor<f32> {
      %s = spmd.psum %acc over "i" : tensor<f32>
      scf.yield %s : tensor<f32>
    }
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// A condition computed from captured values is the same everywhere.
// CHECK-LABEL: func @branch_on_captured
func.func @branch_on_captured(%flag: i1, %a: tensor<2xf32>) -> tensor<2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2xf32>) -> (tensor<2xf32>) {
    // CHECK: scf.if
    %y = scf.if %flag -> tensor<f32> {
      %s = spmd.psum %x over "i" : tensor<f32>
      scf.yield %s : tensor<f32>
    } else {
      scf.yield %x : tensor<f32>
    }
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<2xf32>
}

// Branching on the index along "i" is fine for a collective over "j": all
// devices of one "j" group share their "i" coordinate.
// CHECK-LABEL: func @branch_on_other_axis
func.func @branch_on_other_axis() -> tensor<2x3xf32> {
  %r = spmd.pmap "i" size 2 -> (tensor<2x3xf32>) {
    %s = spmd.pmap "j" size 3 -> (tensor<3xf32>) {
      %i = spmd.axis_index "i" : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %c0 : index
      %one = arith.constant 1.0 : f32
      // CHECK: scf.if
      // CHECK: spmd.psum %{{.*}} over "j"
      %y = scf.if %first -> f32 {
        %p = spmd.psum %one over "j" : f32
        scf.yield %p : f32
      } else {
        scf.yield %one : f32
      }
      spmd.yield %y : f32
    }
    spmd.yield %s : tensor<3xf32>
  }
  return %r : tensor<2x3xf32>
}

// A while loop whose condition comes from a collective's result.
// CHECK-LABEL: func @uniform_while
func.func @uniform_while(%a: tensor<4xi32>) -> tensor<4xi32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4xi32>) -> (tensor<4xi32>) {
    %limit = arith.constant 100 : i32
    %v = tensor.extract %x[] : tensor<i32>
    // CHECK: scf.while
    %out = scf.while (%cur = %v) : (i32) -> i32 {
      %total = spmd.psum %cur over "i" : i32
      %go = arith.cmpi slt, %total, %limit : i32
      scf.condition(%go) %total : i32
    } do {
    ^bb0(%t: i32):
      scf.yield %t : i32
    }
    spmd.yield %out : i32
  }
  return %r : tensor<4xi32>
}

// Over dynamically sized operands whose sizes every device shares (a size
// from outside the pmap, one that a cast fixes), though what they hold
// differs: the body runs as often on every device.
// CHECK-LABEL: func @collective_over_shared_sizes
func.func @collective_over_shared_sizes(%a: tensor<4x8xf32>, %n: index)
    -> tensor<4x8xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x8xf32>) -> (tensor<4x8xf32>) {
    %s = tensor.extract_slice %x[0] [%n] [1] : tensor<8xf32> to tensor<?xf32>
    %init = tensor.empty(%n) : tensor<?xf32>
    // CHECK: linalg.generic
    // CHECK: spmd.pmax
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%s : tensor<?xf32>) outs(%init : tensor<?xf32>) {
    ^bb0(%in: f32, %o: f32):
      %m = spmd.pmax %in over "i" : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    %d = tensor.cast %x : tensor<8xf32> to tensor<?xf32>
    %zero = arith.constant 0.0 : f32
    %filled = linalg.fill ins(%zero : f32) outs(%d : tensor<?xf32>) -> tensor<?xf32>
    // CHECK: linalg.generic
    // CHECK: spmd.psum
    %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%filled : tensor<?xf32>) outs(%d : tensor<?xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = spmd.psum %in over "i" : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    %c = tensor.cast %h : tensor<?xf32> to tensor<8xf32>
    spmd.yield %c : tensor<8xf32>
  }
  return %r : tensor<4x8xf32>
}

// A collective in a linalg op's body over static shapes: every device runs
// the body once per element, whatever the elements hold.
// CHECK-LABEL: func @collective_in_generic
func.func @collective_in_generic(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x64xf32>) -> (tensor<4x64xf32>) {
    %init = tensor.empty() : tensor<64xf32>
    // CHECK: linalg.generic
    // CHECK: spmd.psum
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = spmd.psum %in over "i" : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    spmd.yield %g : tensor<64xf32>
  }
  return %r : tensor<4x64xf32>
}
