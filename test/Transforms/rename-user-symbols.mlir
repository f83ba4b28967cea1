// RUN: pcc-opt %s --pcc-rename-user-symbols | FileCheck %s

// Every function and global that the program defines gets the prefix `u.`,
// and every use follows; a program name that already starts with `u.`
// becomes `u.u.`, so no two names meet. pcc's own symbols (reserved names,
// device functions with a grid) and declarations keep theirs.

// CHECK-DAG: memref.global "private" constant @u.table : memref<2xf32>
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
// CHECK-DAG: memref.global "private" constant @_pcc_site : memref<1xi8>
memref.global "private" constant @_pcc_site : memref<1xi8> = dense<0>

// CHECK-LABEL: func.func private @u.expf(%{{.*}}: f32) -> f32
func.func private @expf(%x: f32) -> f32 {
  return %x : f32
}

// CHECK-LABEL: func.func private @u.u.expf(%{{.*}}: f32) -> f32
func.func private @u.expf(%x: f32) -> f32 {
  // CHECK: call @u.expf(
  %y = func.call @expf(%x) : (f32) -> f32
  return %y : f32
}

// CHECK-LABEL: func.func @_pcc_entry()
func.func @_pcc_entry() {
  // CHECK: memref.get_global @u.table
  %t = memref.get_global @table : memref<2xf32>
  // CHECK: memref.get_global @_pcc_site
  %s = memref.get_global @_pcc_site : memref<1xi8>
  // CHECK: call @u.u.expf(
  %c = arith.constant 1.0 : f32
  %r = func.call @u.expf(%c) : (f32) -> f32
  // CHECK: call @pcc_launch_like()
  func.call @pcc_launch_like() : () -> ()
  // CHECK: call @main_pmap(
  %d = arith.constant 0 : i64
  func.call @main_pmap(%d) : (i64) -> ()
  return
}

// A declaration names what someone else defines: it keeps its name.
// CHECK-LABEL: func.func private @pcc_launch_like()
func.func private @pcc_launch_like()

// A device function (it has a grid) is pcc's.
// CHECK-LABEL: func.func private @main_pmap(
func.func private @main_pmap(%d: i64) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  return
}
