// RUN: pcc-opt %s --pass-pipeline='builtin.module(gpu.module(pcc-check-kernel-accesses))' | FileCheck %s

// Each index of each access is checked against its axis before the access;
// a thread out of bounds prints where, which index, and traps.
// CHECK-LABEL: gpu.func @k
// CHECK: %[[DIM:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<8xf32>
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[DIM]] : index
// CHECK: cf.cond_br %[[IN]], ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK: ^[[FAIL]]:
// CHECK: gpu.printf "pcc runtime error: GPU kernel 'k', block (%u, %u, %u), thread (%u, %u, %u): {{.*}}check-kernel-accesses.mlir:{{[0-9]+}}:{{[0-9]+}}: memref.load (load from a memref<8xf32>): index %lld is out of bounds for axis %lld with size %lld\0A"
// CHECK: llvm.intr.trap
// CHECK: llvm.unreachable
// CHECK: ^[[OK]]:
// CHECK: memref.load
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<8xf32>, %i: index) kernel {
      %v = memref.load %a[%i] : memref<8xf32>
      gpu.return
    }
  }
}
