// Every spmd op and written form round-trips, through the custom and the
// generic form alike.
// RUN: pcc-opt %s | pcc-opt | FileCheck %s
// RUN: pcc-opt %s --mlir-print-op-generic | pcc-opt | FileCheck %s

// CHECK-LABEL: func @mapped_operands
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<4xi32>)
func.func @mapped_operands(%a: tensor<4x3xf32>, %b: tensor<4xi32>)
    -> (tensor<4xf32>, tensor<4x3xf32>, tensor<4xi32>) {
  // CHECK: %{{.*}}:3 = spmd.pmap "i" (%[[X:.*]] = %[[A]] : tensor<4x3xf32>, %[[Y:.*]] = %[[B]] : tensor<4xi32>) -> (tensor<4xf32>, tensor<4x3xf32>, tensor<4xi32>) {
  %r:3 = spmd.pmap "i" (%x = %a : tensor<4x3xf32>, %y = %b : tensor<4xi32>)
      -> (tensor<4xf32>, tensor<4x3xf32>, tensor<4xi32>) {
    // CHECK: %[[S:.*]] = spmd.psum %[[X]] over "i" : tensor<3xf32>
    %s = spmd.psum %x over "i" : tensor<3xf32>
    %c0 = arith.constant 0 : index
    %e = tensor.extract %s[%c0] : tensor<3xf32>
    // CHECK: spmd.yield %{{.*}}, %[[S]], %[[Y]] : f32, tensor<3xf32>, tensor<i32>
    spmd.yield %e, %s, %y : f32, tensor<3xf32>, tensor<i32>
  }
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4x3xf32>, tensor<4xi32>
}

// CHECK-LABEL: func @size_only
func.func @size_only() -> tensor<8xi64> {
  // CHECK: spmd.pmap "i" size 8 -> (tensor<8xi64>) {
  %r = spmd.pmap "i" size 8 -> (tensor<8xi64>) {
    // CHECK: %[[K:.*]] = spmd.axis_index "i" : index
    %k = spmd.axis_index "i" : index
    %v = arith.index_cast %k : index to i64
    spmd.yield %v : i64
  }
  return %r : tensor<8xi64>
}

// `size` may be written next to mapped operands; it is implied by them.
// CHECK-LABEL: func @size_and_operands
func.func @size_and_operands(%a: tensor<2x5xf64>) -> tensor<2x5xf64> {
  // CHECK: spmd.pmap "i" (%{{.*}} = %{{.*}} : tensor<2x5xf64>) -> (tensor<2x5xf64>)
  %r = spmd.pmap "i" size 2 (%x = %a : tensor<2x5xf64>) -> (tensor<2x5xf64>) {
    spmd.yield %x : tensor<5xf64>
  }
  return %r : tensor<2x5xf64>
}

// CHECK-LABEL: func @no_results
func.func @no_results() {
  // CHECK: spmd.pmap "i" size 2 {
  // CHECK-NEXT: spmd.yield
  // CHECK-NEXT: }
  spmd.pmap "i" size 2 {
    spmd.yield
  }
  return
}

// Values defined outside the body are captured: every device sees all of it.
// CHECK-LABEL: func @captured
// CHECK-SAME: %[[W:.*]]: tensor<3xf32>
func.func @captured(%w: tensor<3xf32>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    // CHECK: arith.addf %{{.*}}, %[[W]] : tensor<3xf32>
    %y = arith.addf %x, %w : tensor<3xf32>
    spmd.yield %y : tensor<3xf32>
  }
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func @reductions
func.func @reductions(%a: tensor<4x2x2xi64>, %f: tensor<4xf16>, %g: tensor<4xbf16>) {
  spmd.pmap "i" (%x = %a : tensor<4x2x2xi64>, %h = %f : tensor<4xf16>, %b = %g : tensor<4xbf16>) {
    // CHECK: spmd.psum %{{.*}} over "i" : tensor<2x2xi64>
    // CHECK: spmd.pmax %{{.*}} over "i" : tensor<2x2xi64>
    // CHECK: spmd.pmin %{{.*}} over "i" : tensor<2x2xi64>
    // CHECK: spmd.pmean %{{.*}} over "i" : tensor<f16>
    // CHECK: spmd.pmean %{{.*}} over "i" : tensor<bf16>
    %0 = spmd.psum %x over "i" : tensor<2x2xi64>
    %1 = spmd.pmax %x over "i" : tensor<2x2xi64>
    %2 = spmd.pmin %x over "i" : tensor<2x2xi64>
    %3 = spmd.pmean %h over "i" : tensor<f16>
    %4 = spmd.pmean %b over "i" : tensor<bf16>
    spmd.yield
  }
  return
}

// CHECK-LABEL: func @scalars
func.func @scalars(%s: f32, %t: i8) {
  spmd.pmap "i" size 3 {
    // CHECK: spmd.psum %{{.*}} over "i" : f32
    // CHECK: spmd.pmax %{{.*}} over "i" : i8
    // CHECK: spmd.all_gather %{{.*}} over "i" : f32 -> tensor<3xf32>
    %0 = spmd.psum %s over "i" : f32
    %1 = spmd.pmax %t over "i" : i8
    %2 = spmd.all_gather %s over "i" : f32 -> tensor<3xf32>
    spmd.yield
  }
  return
}

// CHECK-LABEL: func @all_gather_forms
func.func @all_gather_forms(%a: tensor<4x3x2xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3x2xf32>) {
    %b = arith.constant dense<[true, false]> : tensor<2xi1>
    // CHECK: spmd.all_gather %{{.*}} over "i" : tensor<3x2xf32> -> tensor<4x3x2xf32>
    %0 = spmd.all_gather %x over "i" : tensor<3x2xf32> -> tensor<4x3x2xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" : tensor<3x2xf32> -> tensor<4x3x2xf32>
    %1 = spmd.all_gather %x over "i" axis 0 : tensor<3x2xf32> -> tensor<4x3x2xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" axis 1 : tensor<3x2xf32> -> tensor<3x4x2xf32>
    %2 = spmd.all_gather %x over "i" axis 1 : tensor<3x2xf32> -> tensor<3x4x2xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" axis 2 : tensor<3x2xf32> -> tensor<3x2x4xf32>
    %3 = spmd.all_gather %x over "i" axis 2 : tensor<3x2xf32> -> tensor<3x2x4xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" tiled : tensor<3x2xf32> -> tensor<12x2xf32>
    %4 = spmd.all_gather %x over "i" tiled : tensor<3x2xf32> -> tensor<12x2xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" axis 1 tiled : tensor<3x2xf32> -> tensor<3x8xf32>
    %5 = spmd.all_gather %x over "i" axis 1 tiled : tensor<3x2xf32> -> tensor<3x8xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" : tensor<2xi1> -> tensor<4x2xi1>
    %6 = spmd.all_gather %b over "i" : tensor<2xi1> -> tensor<4x2xi1>
    spmd.yield
  }
  return
}

// CHECK-LABEL: func @grid
func.func @grid(%a: tensor<2x3xf32>) -> tensor<2x3x6xf32> {
  // CHECK: spmd.pmap "i"
  %r = spmd.pmap "i" (%row = %a : tensor<2x3xf32>) -> (tensor<2x3x6xf32>) {
    // CHECK: spmd.pmap "j"
    %s = spmd.pmap "j" (%x = %row : tensor<3xf32>) -> (tensor<3x6xf32>) {
      // CHECK: spmd.psum %{{.*}} over ["i", "j"] : tensor<f32>
      %0 = spmd.psum %x over ["i", "j"] : tensor<f32>
      // CHECK: spmd.pmean %{{.*}} over ["j", "i"] : tensor<f32>
      %1 = spmd.pmean %x over ["j", "i"] : tensor<f32>
      // CHECK: spmd.pmin %{{.*}} over "i" : tensor<f32>
      %2 = spmd.pmin %x over "i" : tensor<f32>
      // CHECK: spmd.all_gather %{{.*}} over ["i", "j"] : tensor<f32> -> tensor<6xf32>
      %3 = spmd.all_gather %x over ["i", "j"] : tensor<f32> -> tensor<6xf32>
      // CHECK: spmd.axis_index ["i", "j"] : index
      %4 = spmd.axis_index ["i", "j"] : index
      // CHECK: spmd.axis_index "j" : index
      %5 = spmd.axis_index "j" : index
      spmd.yield %3 : tensor<6xf32>
    }
    spmd.yield %s : tensor<3x6xf32>
  }
  return %r : tensor<2x3x6xf32>
}

// Sibling pmaps may reuse an axis name; only nesting may not.
// CHECK-LABEL: func @siblings
func.func @siblings() {
  // CHECK: spmd.pmap "i" size 2
  // CHECK: spmd.pmap "i" size 3
  spmd.pmap "i" size 2 {
    spmd.yield
  }
  spmd.pmap "i" size 3 {
    spmd.yield
  }
  return
}

// CHECK-LABEL: func @discardable_attributes
func.func @discardable_attributes() {
  // CHECK: spmd.pmap "i" size 2 {
  // CHECK: } attributes {note = "kept"}
  spmd.pmap "i" size 2 {
    spmd.yield
  } attributes {note = "kept"}
  return
}

// CHECK-LABEL: func @data_movement
func.func @data_movement(%v: tensor<4x3xf32>, %w: tensor<8x3xf32>, %s: i1) {
  spmd.pmap "i" size 4 {
    // CHECK: spmd.psum_scatter %{{.*}} over "i" : tensor<4x3xf32> -> tensor<3xf32>
    %rs = spmd.psum_scatter %v over "i" : tensor<4x3xf32> -> tensor<3xf32>
    // CHECK: spmd.psum_scatter %{{.*}} over "i" tiled : tensor<8x3xf32> -> tensor<2x3xf32>
    %rt = spmd.psum_scatter %w over "i" tiled : tensor<8x3xf32> -> tensor<2x3xf32>
    // CHECK: spmd.ppermute %{{.*}} over "i" perm {{\[}}[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4x3xf32>
    %p = spmd.ppermute %v over "i" perm [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4x3xf32>
    // CHECK: spmd.ppermute %{{.*}} over "i" perm {{\[}}[2, 0]] : i1
    %p1 = spmd.ppermute %s over "i" perm [[2, 0]] : i1
    // CHECK: spmd.pshuffle %{{.*}} over "i" perm [3, 0, 1, 2] : tensor<4x3xf32>
    %q = spmd.pshuffle %v over "i" perm [3, 0, 1, 2] : tensor<4x3xf32>
    // CHECK: spmd.all_to_all %{{.*}} over "i" split 0 concat 1 : tensor<4x3xf32> -> tensor<3x4xf32>
    %a = spmd.all_to_all %v over "i" split 0 concat 1 : tensor<4x3xf32> -> tensor<3x4xf32>
    // CHECK: spmd.all_to_all %{{.*}} over "i" split 0 concat 1 tiled : tensor<8x3xf32> -> tensor<2x12xf32>
    %at = spmd.all_to_all %w over "i" split 0 concat 1 tiled : tensor<8x3xf32> -> tensor<2x12xf32>
    // CHECK: spmd.pbroadcast %{{.*}} over "i" from 2 : tensor<4x3xf32>
    %b = spmd.pbroadcast %v over "i" from 2 : tensor<4x3xf32>
    spmd.yield
  }
  return
}

// CHECK-LABEL: func @groups
func.func @groups(%v: tensor<4x3xf32>) {
  spmd.pmap "i" size 4 {
    // CHECK: spmd.psum %{{.*}} over "i" groups {{\[}}[0, 2], [1, 3]] : tensor<4x3xf32>
    %s = spmd.psum %v over "i" groups [[0, 2], [1, 3]] : tensor<4x3xf32>
    // CHECK: spmd.pmean %{{.*}} over "i" groups {{\[}}[0], [1, 2, 3]] : tensor<4x3xf32>
    %m = spmd.pmean %v over "i" groups [[0], [1, 2, 3]] : tensor<4x3xf32>
    // CHECK: spmd.all_gather %{{.*}} over "i" groups {{\[}}[0, 3], [1, 2]] tiled : tensor<4x3xf32> -> tensor<8x3xf32>
    %g = spmd.all_gather %v over "i" groups [[0, 3], [1, 2]] tiled : tensor<4x3xf32> -> tensor<8x3xf32>
    // CHECK: spmd.psum_scatter %{{.*}} over "i" groups {{\[}}[0, 1], [2, 3]] dim 1 : tensor<4x2xf32> -> tensor<4xf32>
    %w = tensor.extract_slice %v[0, 0] [4, 2] [1, 1] : tensor<4x3xf32> to tensor<4x2xf32>
    %rs = spmd.psum_scatter %w over "i" groups [[0, 1], [2, 3]] dim 1 : tensor<4x2xf32> -> tensor<4xf32>
    // CHECK: spmd.all_to_all %{{.*}} over "i" groups {{\[}}[0, 1], [2, 3]] split 0 concat 0 tiled : tensor<4x3xf32> -> tensor<4x3xf32>
    %a = spmd.all_to_all %v over "i" groups [[0, 1], [2, 3]] split 0 concat 0 tiled : tensor<4x3xf32> -> tensor<4x3xf32>
    spmd.yield
  }
  return
}
