// RUN: pcc-opt %s -split-input-file -allow-unregistered-dialect --pcc-free-buffers-early | FileCheck %s

// Each buffer the block owns is freed after the last op that uses it or a
// view of it, not at the end of the block.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK-NEXT: "test.sum"(%[[A]], %[[B]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[C:.*]] = memref.alloc()
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[B]]
// CHECK-NEXT: "test.sum"(%[[V]], %[[C]])
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: "test.sum"(%[[C]], %[[C]])
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: %[[U:.*]] = memref.alloc()
// CHECK-NEXT: memref.dealloc %[[U]]
// CHECK-NOT: bufferization.dealloc
// CHECK: return
func.func @chain(%n: index) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  "test.sum"(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  %c = memref.alloc() : memref<4xf32>
  %v = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  "test.sum"(%v, %c) : (memref<4xf32, strided<[1]>>, memref<4xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    "test.sum"(%c, %c) : (memref<4xf32>, memref<4xf32>) -> ()
  }
  %unused = memref.alloc() : memref<2xf32>
  bufferization.dealloc (%a, %b, %c, %unused : memref<8xf32>, memref<8xf32>, memref<4xf32>, memref<2xf32>) if (%true, %true, %true, %true)
  return
}

// -----

// What may not be owned (a dynamic condition), what the block did not
// allocate, what a region yields on (its op's result is an alias) and what
// leaves the block stay freed at the end, or later; a dealloc that
// retains values is left as it is.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: (%[[ARG:.*]]: memref<8xf32>, %[[COND:.*]]: i1, %[[N:.*]]: index)
// CHECK: %[[Y:.*]] = memref.alloc()
// CHECK: %[[R:.*]] = scf.for
// CHECK: "test.use"(%[[R]])
// CHECK-NEXT: memref.dealloc %[[Y]]
// CHECK-NEXT: bufferization.dealloc (%[[X:.*]], %[[ARG]] : memref<8xf32>, memref<8xf32>) if (%[[COND]], %true)
// CHECK-NEXT: return
func.func @kept(%arg: memref<8xf32>, %cond: i1, %n: index) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<8xf32>
  "test.use"(%x) : (memref<8xf32>) -> ()
  %y = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %y) -> memref<8xf32> {
    scf.yield %it : memref<8xf32>
  }
  "test.use"(%r) : (memref<8xf32>) -> ()
  bufferization.dealloc (%x, %arg, %y : memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%cond, %true, %true)
  return
}

// CHECK-LABEL: func.func @retains
// CHECK: %{{.*}} = bufferization.dealloc (%{{.*}} : memref<8xf32>) if (%true) retain (%{{.*}} : memref<8xf32>)
func.func @retains(%arg: memref<8xf32>) -> i1 {
  %true = arith.constant true
  %x = memref.alloc() : memref<8xf32>
  "test.use"(%x) : (memref<8xf32>) -> ()
  %o = bufferization.dealloc (%x : memref<8xf32>) if (%true) retain (%arg : memref<8xf32>)
  return %o : i1
}

// -----

// As ownership-based deallocation leaves them, before canonicalization:
// buffers named by their base buffers. The allocation is freed after its
// last use (the metadata op that named it aside); a base buffer read
// elsewhere too, or not of an allocation, stays.
// CHECK-LABEL: func.func @base_buffers
// CHECK-SAME: (%[[ARG:.*]]: memref<8xf32>)
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK-NEXT: "test.use"(%[[A]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc()
// CHECK-NEXT: "test.use"(%[[B]])
// CHECK: %[[BASE_ARG:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[ARG]]
// CHECK: %[[BASE_A:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BASE_B:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK-NEXT: "test.use"(%[[BASE_B]])
// CHECK-NEXT: bufferization.dealloc (%[[BASE_ARG]], %[[BASE_B]] : memref<f32>, memref<f32>) if (%false, %true)
// CHECK-NEXT: return
func.func @base_buffers(%arg: memref<8xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %a = memref.alloc() : memref<8xf32>
  "test.use"(%a) : (memref<8xf32>) -> ()
  %b = memref.alloc() : memref<8xf32>
  "test.use"(%b) : (memref<8xf32>) -> ()
  %base_arg, %o0, %s0, %t0 = memref.extract_strided_metadata %arg : memref<8xf32> -> memref<f32>, index, index, index
  %base_a, %o1, %s1, %t1 = memref.extract_strided_metadata %a : memref<8xf32> -> memref<f32>, index, index, index
  %base_b, %o2, %s2, %t2 = memref.extract_strided_metadata %b : memref<8xf32> -> memref<f32>, index, index, index
  "test.use"(%base_b) : (memref<f32>) -> ()
  bufferization.dealloc (%base_arg, %base_a, %base_b : memref<f32>, memref<f32>, memref<f32>) if (%false, %true, %true)
  return
}
