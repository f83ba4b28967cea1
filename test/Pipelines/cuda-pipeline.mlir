// REQUIRES: cuda-toolkit
// The cuda pipeline on the training step: loop nests become kernels in an
// sm_90 fatbin, launched from the device function; buffers come from the
// runtime's allocator (managed memory); devices are launched by
// pcc_cuda_launch, and the gradient psum is the same runtime call as on cpu
// (the runtime routes it to the GPU).
// RUN: pcc-opt %pcc_src/examples/train_step.mlir --pass-pipeline="builtin.module(pcc-cuda-pipeline)" | FileCheck %s

// CHECK-DAG: llvm.func @pcc_cuda_launch(
// CHECK-DAG: llvm.func @pcc_collective(
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_aligned_alloc(
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(
// CHECK-DAG: llvm.call @pcc_cuda_launch(
// CHECK-NOT: llvm.func @malloc
// CHECK-LABEL: llvm.func @main_pmap(
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: gpu.launch_func  @[[KERNEL:main_pmap_kernel[_0-9]*]]::@main_pmap_kernel blocks in
// CHECK: llvm.call @pcc_collective(
// CHECK: gpu.binary @[[KERNEL]]  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">

// With format=isa the kernels are PTX, which `pcc compile --emit=ptx`
// writes; a row reduction is a block reduction through shuffles and shared
// memory, a matmul reads its tiles from shared memory.
// RUN: pcc-opt %S/Inputs/cooperative.mlir --pass-pipeline="builtin.module(pcc-cuda-pipeline{format=isa})" | FileCheck %s --check-prefix=PTX
// PTX-DAG: gpu.binary {{.*}}.maxntid 256, 1, 1{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync
// PTX-DAG: gpu.binary {{.*}}.maxntid 16, 16, 1{{.*}}.shared {{.*}}bar.sync{{.*}}ld.shared{{.*}}ld.shared{{.*}}mul.rn.f32
