// RUN: pcc-opt %s --pcc-copy-constant-globals | FileCheck %s

memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0> {alignment = 64 : i64}
memref.global "private" @state : memref<4xf32> = dense<0.0>

// A read of a constant global becomes a copy into a fresh buffer, which
// every use then reads.
// CHECK-LABEL: func.func @constant(
// CHECK: %[[GLOBAL:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.copy %[[GLOBAL]], %[[COPY]]
// CHECK: memref.copy %[[COPY]], %arg0
func.func @constant(%out: memref<4xf32>) {
  %g = memref.get_global @__constant_4xf32 : memref<4xf32>
  memref.copy %g, %out : memref<4xf32> to memref<4xf32>
  return
}

// A mutable global is not copied: writes must reach it.
// CHECK-LABEL: func.func @mutable(
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %arg0, %{{.*}}
func.func @mutable(%in: memref<4xf32>) {
  %g = memref.get_global @state : memref<4xf32>
  memref.copy %in, %g : memref<4xf32> to memref<4xf32>
  return
}
