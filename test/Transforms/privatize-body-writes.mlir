// RUN: pcc-opt %s --pcc-privatize-body-writes --split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A write into a tensor from outside the body, directly or through a view,
// gets a copy made in the body; reads and writes into the body's own
// tensors get none.
// CHECK-LABEL: func @writes
// CHECK-SAME: (%[[T:.*]]: tensor<8xf32>,
func.func @writes(%t: tensor<8xf32>, %e: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    // CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[T]])
    // CHECK: %[[N:.*]] = tensor.insert %{{.*}} into %[[COPY]]
    %n = tensor.insert %v into %t[%j] : tensor<8xf32>
    // CHECK-NOT: alloc_tensor
    // CHECK: tensor.insert %{{.*}} into %[[N]]
    %m = tensor.insert %v into %n[%c0] : tensor<8xf32>
    // CHECK: tensor.extract %[[T]]
    %a = tensor.extract %t[%c0] : tensor<8xf32>
    // CHECK: %[[VIEW:.*]] = tensor.extract_slice %[[T]]
    // CHECK: %[[VCOPY:.*]] = bufferization.alloc_tensor() copy(%[[VIEW]])
    // CHECK: tensor.insert %{{.*}} into %[[VCOPY]]
    %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %w = tensor.insert %v into %s[%c0] : tensor<4xf32>
    %b = tensor.extract %m[%c0] : tensor<8xf32>
    %c = tensor.extract %w[%c0] : tensor<4xf32>
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    linalg.yield %abc : f32
  } -> tensor<8xf32>
  // Outside every body, nothing changes.
  // CHECK: } -> tensor<8xf32>
  // CHECK-NOT: alloc_tensor
  // CHECK: tensor.insert %{{.*}} into %[[T]]
  %outside = tensor.insert %v into %t[%c0] : tensor<8xf32>
  return %r, %outside : tensor<8xf32>, tensor<8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A loop in the body that carries a tensor from outside starts from a copy;
// a linalg op in the body whose init is one, and never reads it, writes
// into a buffer of its own.
// CHECK-LABEL: func @loops_and_inits
// CHECK-SAME: (%[[T:.*]]: tensor<4xf32>,
func.func @loops_and_inits(%t: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    // CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[T]])
    // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[COPY]])
    %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (tensor<4xf32>) {
      // CHECK-NOT: alloc_tensor
      %b = tensor.insert %v into %a[%i] : tensor<4xf32>
      scf.yield %b : tensor<4xf32>
    }
    // CHECK: %[[INIT:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
    // CHECK: linalg.fill ins(%{{.*}}) outs(%[[INIT]]
    %f = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    %x = tensor.extract %l[%c0] : tensor<4xf32>
    %y = tensor.extract %f[%c0] : tensor<4xf32>
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A write that needs none of the tensor's contents (into an empty tensor,
// or an init its linalg op never reads) gets a buffer, not a copy; a pad's
// padding region runs once per padded element too.
// CHECK-LABEL: func @buffers_and_pads
// CHECK-SAME: (%[[T:.*]]: tensor<4xf32>,
func.func @buffers_and_pads(%t: tensor<4xf32>, %e: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    // CHECK: %[[B1:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
    // CHECK: tensor.insert %{{.*}} into %[[B1]]
    %a = tensor.insert %v into %empty[%c0] : tensor<4xf32>
    // CHECK: %[[B2:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
    // CHECK: linalg.fill ins(%{{.*}}) outs(%[[B2]]
    %f = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    %x = tensor.extract %a[%c0] : tensor<4xf32>
    %y = tensor.extract %f[%c0] : tensor<4xf32>
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  // CHECK: tensor.pad
  // CHECK: %[[PCOPY:.*]] = bufferization.alloc_tensor() copy(%[[T]])
  // CHECK: tensor.insert %{{.*}} into %[[PCOPY]]
  %p = tensor.pad %t low[0] high[4] {
  ^bb0(%i: index):
    %n = tensor.insert %v into %t[%c0] : tensor<4xf32>
    %w = tensor.extract %n[%c0] : tensor<4xf32>
    tensor.yield %w : f32
  } : tensor<4xf32> to tensor<8xf32>
  return %r, %p : tensor<4xf32>, tensor<8xf32>
}
