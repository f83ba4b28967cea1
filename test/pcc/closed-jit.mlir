// A program cannot make pcc call functions it does not define.
// RUN: not pcc run %s 2>&1 | FileCheck %s
// CHECK: closed-jit.mlir:[[# @LINE + 1]]:1: error: function @system is declared but not defined
func.func private @system(i64) -> i32

func.func @main() -> tensor<i32> {
  %c = arith.constant 0 : i64
  %r = func.call @system(%c) : (i64) -> i32
  %t = tensor.from_elements %r : tensor<i32>
  return %t : tensor<i32>
}
