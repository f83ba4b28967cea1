// The host pipeline takes the seed's program all the way to the LLVM
// dialect (the program's @main as @u.main, apart from libraries' names):
// the pmap becomes a pcc_launch call with a thunk that calls
// the device function's C interface and the launch's work (15 elements:
// docs/design.md counts them), and psum a runtime call.
// RUN: pcc-opt %pcc_src/examples/psum.mlir --pass-pipeline="builtin.module(pcc-cpu-pipeline)" | FileCheck %s
// RUN: pcc-opt %pcc_src/examples/grid.mlir --pass-pipeline="builtin.module(pcc-cpu-pipeline)" | FileCheck %s --check-prefix=GRID

// CHECK-NOT: spmd.
// CHECK-DAG: llvm.func @pcc_launch(i64, !llvm.ptr, !llvm.ptr, i64)
// CHECK-DAG: llvm.func @pcc_collective(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @u.main(
// CHECK-DAG: %[[FN:.*]] = llvm.mlir.addressof @main_pmap_thunk
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG: %[[WORK:.*]] = llvm.mlir.constant(15 : i64) : i64
// CHECK: llvm.call @pcc_launch(%[[N]], %[[FN]], %{{.*}}, %[[WORK]])
// CHECK-LABEL: llvm.func @_mlir_ciface_main_pmap(
// CHECK-LABEL: llvm.func @_mlir_ciface__pcc_entry(
// CHECK-LABEL: llvm.func @main_pmap_thunk(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK: llvm.call @_mlir_ciface_main_pmap(

// GRID-LABEL: llvm.func @u.main(
// GRID: llvm.mlir.constant(6 : i64)
// GRID: llvm.call @pcc_launch
// The grid's rank and sizes end each collective's site (a psum of i32 over
// axis 1: kind 0, dtype 2, sum, 1 element, the shape's hash, mask 2, no
// table).
// GRID: llvm.mlir.global private constant @_pcc_main_pmap_collective(dense<[0, 2, 0, 1, {{-?[0-9]+}}, 2, 0, 2, 2, 3]> : tensor<10xi64>)
