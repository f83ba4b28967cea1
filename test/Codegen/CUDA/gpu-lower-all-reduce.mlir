// RUN: pcc-opt %s --pass-pipeline="builtin.module(gpu.module(pcc-gpu-lower-all-reduce))" > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=NARROW < %t

// Kernels as pcc-linalg-to-gpu and gpu-kernel-outlining leave them: a block
// of 256 threads reduces its values with gpu.all_reduce. The reduction
// becomes warp shuffles (a butterfly within each warp of 32), a buffer in
// shared memory (one value per warp, added to the kernel as a workgroup
// attribution) and barriers.

// CHECK-LABEL: gpu.func @sum_f32(
// CHECK-SAME: workgroup(%[[SHARED:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: gpu.all_reduce
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %c1_i32, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %[[S1]] : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %{{.*}} : f32
// CHECK: memref.store %{{.*}}, %[[SHARED]][%{{.*}}] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.load %[[SHARED]][%{{.*}}] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TOTAL:.*]] = memref.load %[[SHARED]][%c0] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %[[TOTAL]], %{{.*}}[] : memref<f32>
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.return

// 64-bit values are shuffled as two 32-bit halves (convert-gpu-to-nvvm
// takes only 32-bit shuffles): no shuffle anywhere is wider.
// NARROW-NOT: gpu.shuffle {{.*}} : {{f64|i64}}
// CHECK-LABEL: gpu.func @max_f64(
// CHECK-SAME: workgroup(%{{.*}} : memref<32xf64, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: gpu.all_reduce
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f64 to i64
// CHECK: %[[LOW:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK: %[[HIGH_BITS:.*]] = arith.shrui %[[BITS]], %c32_i64 : i64
// CHECK: %[[HIGH:.*]] = arith.trunci %[[HIGH_BITS]] : i64 to i32
// CHECK: gpu.shuffle xor %[[LOW]], %c1_i32, %{{.*}} : i32
// CHECK: gpu.shuffle xor %[[HIGH]], %c1_i32, %{{.*}} : i32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f64
// CHECK-NOT: gpu.all_reduce
// CHECK: gpu.return

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum_f32(%in: memref<256xf32>, %out: memref<f32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %s, %out[] : memref<f32>
      gpu.return
    }
    gpu.func @max_f64(%in: memref<256xf64>, %out: memref<f64>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<256xf64>
      %s = gpu.all_reduce maximumf %v uniform {} : (f64) -> f64
      memref.store %s, %out[] : memref<f64>
      gpu.return
    }
  }
}
