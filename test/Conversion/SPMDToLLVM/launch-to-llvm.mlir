// RUN: pcc-opt %s --split-input-file --pcc-convert-launch-to-llvm | FileCheck %s
// RUN: pcc-opt %s --split-input-file --pcc-convert-launch-to-llvm=launch-function=pcc_cuda_launch | FileCheck %s --check-prefix=CUDA

// The host code as the conversions to the LLVM dialect leave it: everything
// is LLVM but the launches, whose buffers are memref descriptors behind
// unrealized casts. Each launch stores its descriptors in stack slots, their
// addresses in an array, and calls pcc_launch(devices, thunk, array, work);
// the thunk hands one device's index and the descriptors to the device
// function's C interface.

!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

// CHECK: llvm.func @pcc_launch(i64, !llvm.ptr, !llvm.ptr, i64)
// CUDA: llvm.func @pcc_cuda_launch(i64, !llvm.ptr, !llvm.ptr, i64)
// CUDA-NOT: @pcc_launch

llvm.func @main_pmap(i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64) attributes {llvm.emit_c_interface, spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>}
llvm.func @_mlir_ciface_main_pmap(i64, !llvm.ptr, !llvm.ptr) attributes {llvm.emit_c_interface, spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>}

// The slots are allocated once, in the entry block, even for a launch in a
// loop.
// CHECK-LABEL: llvm.func @main(
// CHECK-SAME: %[[IN:.*]]: !llvm.struct<{{.*}}>, %[[OUT:.*]]: !llvm.struct<{{.*}}>)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[ARRAY:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x ptr>
// CHECK: %[[SLOT0:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[SLOT1:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.br ^[[LOOP:.*]]
// CHECK: ^[[LOOP]]:
// CHECK: llvm.store %[[IN]], %[[SLOT0]]
// CHECK: %[[ELEMENT0:.*]] = llvm.getelementptr %[[ARRAY]][0]
// CHECK: llvm.store %[[SLOT0]], %[[ELEMENT0]]
// CHECK: llvm.store %[[OUT]], %[[SLOT1]]
// CHECK: %[[ELEMENT1:.*]] = llvm.getelementptr %[[ARRAY]][1]
// CHECK: llvm.store %[[SLOT1]], %[[ELEMENT1]]
// CHECK: %[[THUNK:.*]] = llvm.mlir.addressof @main_pmap_thunk
// CHECK: %[[DEVICES:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[WORK:.*]] = llvm.mlir.constant(15 : i64) : i64
// CHECK: llvm.call @pcc_launch(%[[DEVICES]], %[[THUNK]], %[[ARRAY]], %[[WORK]])
// CHECK-NOT: spmd.launch
// CUDA-LABEL: llvm.func @main(
// CUDA: llvm.call @pcc_cuda_launch(
llvm.func @main(%in: !desc, %out: !desc) {
  %a = builtin.unrealized_conversion_cast %in : !desc to memref<4xf32>
  %b = builtin.unrealized_conversion_cast %out : !desc to memref<4xf32>
  llvm.br ^loop
^loop:
  spmd.launch @main_pmap devices 4 (%a) outs(%b) {work = 15 : i64} : (memref<4xf32>) -> memref<4xf32>
  llvm.br ^loop
}

// A launch without a work estimate passes -1; a second launch of the same
// device function uses the same thunk.
// CHECK-LABEL: llvm.func @twice(
// CHECK: %[[THUNK:.*]] = llvm.mlir.addressof @main_pmap_thunk
// CHECK: %[[WORK:.*]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK: llvm.call @pcc_launch(%{{.*}}, %[[THUNK]], %{{.*}}, %[[WORK]])
// CHECK: llvm.mlir.addressof @main_pmap_thunk
// CHECK: llvm.call @pcc_launch(
llvm.func @twice(%in: !desc, %out: !desc) {
  %a = builtin.unrealized_conversion_cast %in : !desc to memref<4xf32>
  %b = builtin.unrealized_conversion_cast %out : !desc to memref<4xf32>
  spmd.launch @main_pmap devices 4 (%a) outs(%b) : (memref<4xf32>) -> memref<4xf32>
  spmd.launch @main_pmap devices 4 (%b) outs(%a) : (memref<4xf32>) -> memref<4xf32>
  llvm.return
}

// After each launch, pcc_share_output(devices, rank, output's slot,
// element bytes, uniform, returned) per output, the flags from
// uniform_outputs and returned_outputs (0 where absent).
// CHECK-LABEL: llvm.func @shared_outputs(
// CHECK: llvm.call @pcc_launch(
// CHECK: %[[RANK:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[ELEM:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[UNIFORM:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[RETURNED:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @pcc_share_output(%{{.*}}, %[[RANK]], %{{.*}}, %[[ELEM]], %[[UNIFORM]], %[[RETURNED]])
// CHECK: llvm.call @pcc_launch(
// CHECK: %[[UNIFORM:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[RETURNED:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @pcc_share_output(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[UNIFORM]], %[[RETURNED]])
// CHECK: llvm.call @pcc_launch(
// CHECK: %[[UNIFORM:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[RETURNED:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @pcc_share_output(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[UNIFORM]], %[[RETURNED]])
llvm.func @shared_outputs(%in: !desc, %out: !desc) {
  %a = builtin.unrealized_conversion_cast %in : !desc to memref<4xf32>
  %b = builtin.unrealized_conversion_cast %out : !desc to memref<4xf32>
  spmd.launch @main_pmap devices 4 (%a) outs(%b) {returned_outputs = array<i1: true>, uniform_outputs = array<i1: true>} : (memref<4xf32>) -> memref<4xf32>
  spmd.launch @main_pmap devices 4 (%a) outs(%b) {uniform_outputs = array<i1: true>} : (memref<4xf32>) -> memref<4xf32>
  spmd.launch @main_pmap devices 4 (%a) outs(%b) : (memref<4xf32>) -> memref<4xf32>
  llvm.return
}

// The thunk: args[i] is the descriptor of buffer i.
// CHECK-LABEL: llvm.func @main_pmap_thunk(
// CHECK-SAME: %[[ARGS:.*]]: !llvm.ptr, %[[DEVICE:.*]]: i64)
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[ARGS]][0]
// CHECK-NEXT: %[[D0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[ARGS]][1]
// CHECK-NEXT: %[[D1:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @_mlir_ciface_main_pmap(%[[DEVICE]], %[[D0]], %[[D1]]) : (i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
// CHECK-NOT: llvm.func @main_pmap_thunk

// -----

// The C interface is declared if it is not there yet, and the thunk takes
// another name if its own is taken.
!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
llvm.func @dev(i64, !llvm.ptr, !llvm.ptr, i64, i64, i64) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>}
llvm.func @dev_thunk()

// CHECK: llvm.func @_mlir_ciface_dev(i64, !llvm.ptr)
// CHECK-LABEL: llvm.func @main(
// CHECK: llvm.mlir.addressof @dev_thunk_0
// CHECK: llvm.func @dev_thunk_0(
// CHECK: llvm.call @_mlir_ciface_dev(
llvm.func @main(%out: !desc) {
  %b = builtin.unrealized_conversion_cast %out : !desc to memref<2xf32>
  spmd.launch @dev devices 2 () outs(%b) : () -> memref<2xf32>
  llvm.return
}
