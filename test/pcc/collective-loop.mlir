// A collective in a long loop must not grow the stack: each call's memref
// descriptors live in a scope that ends with the call. Half a million psums
// would otherwise take tens of megabytes of stack and crash.
// RUN: pcc run %s | FileCheck %s
// CHECK: [1000000 1000000]
func.func @main() -> tensor<2xi64> {
  %r = spmd.pmap "i" size 2 () -> (tensor<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 500000 : index
    %z = arith.constant 0 : i64
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
      %one = arith.constant 1 : i64
      %t = spmd.psum %one over "i" : i64
      %a = arith.addi %acc, %t : i64
      scf.yield %a : i64
    }
    spmd.yield %s : i64
  }
  return %r : tensor<2xi64>
}
