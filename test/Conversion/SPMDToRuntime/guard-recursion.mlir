// RUN: pcc-opt %s --pcc-guard-recursion | FileCheck %s

// Functions that may recurse check the stack at their entry, with a string
// that names them; the others are left alone.
// CHECK-DAG: func.func private @pcc_mlir_check_stack(memref<*xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: memref.global "private" constant @_pcc_recursive_function : memref<{{[0-9]+}}xi8> {{.*}} {pcc.host_only}

// Recursion of a function into itself.
// CHECK-LABEL: func.func @self
// CHECK-NEXT: memref.get_global @_pcc_recursive_function
// CHECK-NEXT: memref.cast
// CHECK-NEXT: call @pcc_mlir_check_stack
func.func @self(%n: i64) -> i64 {
  %r = func.call @self(%n) : (i64) -> i64
  return %r : i64
}

// Both functions of a cycle.
// CHECK-LABEL: func.func @ping
// CHECK: call @pcc_mlir_check_stack
// CHECK: call @pong
func.func @ping(%n: i64) -> i64 {
  %r = func.call @pong(%n) : (i64) -> i64
  return %r : i64
}
// CHECK-LABEL: func.func @pong
// CHECK: call @pcc_mlir_check_stack
// CHECK: call @ping
func.func @pong(%n: i64) -> i64 {
  %r = func.call @ping(%n) : (i64) -> i64
  return %r : i64
}

// A function whose address is taken: func.call_indirect may reach it again.
// CHECK-LABEL: func.func @through_pointer
// CHECK: call @pcc_mlir_check_stack
func.func @through_pointer(%n: i64) -> i64 {
  return %n : i64
}

// Callers of recursive functions, and leaves, are not checked.
// CHECK-LABEL: func.func @caller
// CHECK-NOT: pcc_mlir_check_stack
// CHECK: return
func.func @caller(%n: i64) -> i64 {
  %f = func.constant @through_pointer : (i64) -> i64
  %a = func.call_indirect %f(%n) : (i64) -> i64
  %b = func.call @self(%a) : (i64) -> i64
  %c = func.call @leaf(%b) : (i64) -> i64
  return %c : i64
}
// CHECK-LABEL: func.func @leaf
// CHECK-NOT: pcc_mlir_check_stack
// CHECK: return
func.func @leaf(%n: i64) -> i64 {
  return %n : i64
}
