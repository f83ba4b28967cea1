// One-Shot Bufferize sees what spmd.runtime_call and spmd.launch read and
// write: it never writes in place over a value that a later call still
// reads, and it lets a call write in place of a dead input.
// As in pcc's pipeline, functions take buffers in the identity layout.
// RUN: pcc-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// s = psum(x); m = s * x; t = psum(s): the product must overwrite neither
// s, which the second call reads after it, nor x; the first sum must not
// overwrite x, which the product reads. Only the second sum, whose input is
// dead, is written in place.
// CHECK-LABEL: func @read_after_elementwise
// CHECK-SAME: (%[[DEV:.*]]: i64, %[[GRID:.*]]: memref<1xi64>, %[[SITE:.*]]: memref<4xi8>, %[[X:.*]]: memref<6xf32
// CHECK: %[[S:.*]] = memref.alloc()
// CHECK: spmd.runtime_call @sum(%[[DEV]], %[[GRID]], %[[SITE]], %[[X]]) outs(%[[S]])
// CHECK: %[[M:.*]] = memref.alloc()
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[X]] : {{.*}}) outs(%[[M]] :
// CHECK: spmd.runtime_call @sum(%[[DEV]], %[[GRID]], %[[SITE]], %[[S]]) outs(%[[S]])
// CHECK: return %[[S]], %[[M]]
func.func @read_after_elementwise(%device: i64, %grid: memref<1xi64>,
                                  %site: memref<4xi8>, %x: tensor<6xf32>)
    -> (tensor<6xf32>, tensor<6xf32>) {
  %s = spmd.runtime_call @sum(%device, %grid, %site, %x) outs(%x) {elementwise}
      : (i64, memref<1xi64>, memref<4xi8>, tensor<6xf32>) -> tensor<6xf32>
        -> tensor<6xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%s, %x : tensor<6xf32>, tensor<6xf32>) outs(%s : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<6xf32>
  %t = spmd.runtime_call @sum(%device, %grid, %site, %s) outs(%s) {elementwise}
      : (i64, memref<1xi64>, memref<4xi8>, tensor<6xf32>) -> tensor<6xf32>
        -> tensor<6xf32>
  return %t, %m : tensor<6xf32>, tensor<6xf32>
}

// -----

// A sum carried by a loop is written in place of the loop's value: no
// buffer per step.
// CHECK-LABEL: func @loop_carried
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: spmd.runtime_call @sum({{.*}}, %[[A:.*]]) outs(%[[A]])
// CHECK-NEXT: scf.yield %[[A]]
func.func @loop_carried(%device: i64, %x: tensor<8xi64>, %n: index)
    -> tensor<8xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> tensor<8xi64> {
    %s = spmd.runtime_call @sum(%device, %a) outs(%a) {elementwise}
        : (i64, tensor<8xi64>) -> tensor<8xi64> -> tensor<8xi64>
    scf.yield %s : tensor<8xi64>
  }
  return %r : tensor<8xi64>
}

// -----

// A value that is both returned and summed again keeps its own buffer.
// CHECK-LABEL: func @used_twice
// CHECK: spmd.runtime_call @sum({{.*}}, %[[X:.*]]) outs(%[[X]])
// CHECK: %[[T:.*]] = memref.alloc()
// CHECK: spmd.runtime_call @sum({{.*}}, %[[X]]) outs(%[[T]])
// CHECK: return %[[X]], %[[T]]
func.func @used_twice(%device: i64, %x: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %s = spmd.runtime_call @sum(%device, %x) outs(%x) {elementwise}
      : (i64, tensor<8xf32>) -> tensor<8xf32> -> tensor<8xf32>
  %t = spmd.runtime_call @sum(%device, %s) outs(%s) {elementwise}
      : (i64, tensor<8xf32>) -> tensor<8xf32> -> tensor<8xf32>
  return %s, %t : tensor<8xf32>, tensor<8xf32>
}

// -----

// Without `elementwise` a call never writes over what it reads.
// CHECK-LABEL: func @not_elementwise
// CHECK: %[[O:.*]] = memref.alloc()
// CHECK: spmd.runtime_call @gather({{.*}}, %[[X:.*]]) outs(%[[O]])
func.func @not_elementwise(%device: i64, %x: tensor<8xf32>) -> tensor<8xf32> {
  %g = spmd.runtime_call @gather(%device, %x) outs(%x)
      : (i64, tensor<8xf32>) -> tensor<8xf32> -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// The runtime takes contiguous buffers: a column is copied into a buffer of
// its own before the call; a row is passed where it is.
// CHECK-LABEL: func @contiguous
// CHECK: %[[COL:.*]] = memref.subview %{{.*}}[0, 1] [4, 1] [1, 1]
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK: memref.copy %[[COL]], %[[COPY]]
// CHECK: spmd.runtime_call @gather(%{{.*}}, %[[COPY]]) outs(%{{.*}}) :
// CHECK: %[[ROW:.*]] = memref.subview %{{.*}}[1, 0] [1, 2] [1, 1] : memref<4x2xf32> to memref<2xf32, strided<[1], offset: 2>>
// CHECK-NOT: memref.copy
// CHECK: spmd.runtime_call @gather(%{{.*}}, %[[ROW]]) outs(%{{.*}}) :
func.func @contiguous(%device: i64, %x: tensor<4x2xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %col = tensor.extract_slice %x[0, 1] [4, 1] [1, 1]
      : tensor<4x2xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = spmd.runtime_call @gather(%device, %col) outs(%e)
      : (i64, tensor<4xf32>) -> tensor<8xf32> -> tensor<8xf32>
  %row = tensor.extract_slice %x[1, 0] [1, 2] [1, 1]
      : tensor<4x2xf32> to tensor<2xf32>
  %f = tensor.empty() : tensor<4xf32>
  %h = spmd.runtime_call @gather(%device, %row) outs(%f)
      : (i64, tensor<2xf32>) -> tensor<4xf32> -> tensor<4xf32>
  return %g, %h : tensor<8xf32>, tensor<4xf32>
}

// -----

func.func private @device(%device: i64, %in: memref<4xf32>, %out: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

// r = pmap(x); z = r + r (on the host); q = pmap(r): the sum must not
// overwrite r, which the second launch reads after it.
// CHECK-LABEL: func @launch_reads_after_elementwise
// CHECK: %[[R:.*]] = memref.alloc()
// CHECK: spmd.launch @device devices 4(%{{.*}}) outs(%[[R]])
// CHECK: %[[Z:.*]] = memref.alloc()
// CHECK: linalg.generic {{.*}} outs(%[[Z]] :
// CHECK: spmd.launch @device devices 4(%[[R]]) outs(%{{.*}})
#id = affine_map<(d0) -> (d0)>
func.func @launch_reads_after_elementwise(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = spmd.launch @device devices 4 (%x) outs(%e)
      : (tensor<4xf32>) -> (tensor<4xf32>) -> tensor<4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%r : tensor<4xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.addf %a, %a : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %q = spmd.launch @device devices 4 (%r) outs(%e2)
      : (tensor<4xf32>) -> (tensor<4xf32>) -> tensor<4xf32>
  return %z, %q : tensor<4xf32>, tensor<4xf32>
}
