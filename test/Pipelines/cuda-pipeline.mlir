// REQUIRES: cuda-toolkit
// The cuda pipeline, compile-only so far: the training step's loop nests
// become GPU kernels compiled to an sm_90 fatbin; the devices are still
// launched by pcc_launch and the gradient psum is still a runtime call.
// RUN: pcc-opt %pcc_src/examples/train_step.mlir --pass-pipeline="builtin.module(pcc-cuda-pipeline)" | FileCheck %s

// CHECK-DAG: llvm.func @pcc_launch(
// CHECK-DAG: llvm.func @_mlir_ciface_pcc_mlir_all_reduce_f32(
// CHECK-LABEL: llvm.func @main_pmap(
// CHECK: gpu.launch_func  @[[KERNEL:main_pmap_kernel[_0-9]*]]::@main_pmap_kernel blocks in
// CHECK: llvm.call @pcc_mlir_all_reduce_f32(
// CHECK: gpu.binary @[[KERNEL]]  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
