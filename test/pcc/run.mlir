// An spmd-free program: pcc lowers, JIT-compiles and runs it, and prints each
// result as NumPy's print() does, one after the other.
// RUN: pcc run %s | FileCheck %s
// RUN: pcc run - < %s | FileCheck %s
// RUN: pcc run %s --backend=cpu | FileCheck %s
// RUN: pcc run %s --backend=auto | FileCheck %s

// CHECK:      [ 5  7  9 11]
// CHECK-NEXT: {{\[}}[0.5 1. ]
// CHECK-NEXT:  [1.5 2. ]]
// CHECK-NEXT: 42
// CHECK-NEXT: [ True False]
// CHECK-NEXT: 2.5
// CHECK-EMPTY:
func.func @main() -> (tensor<4xi32>, tensor<2x2xf64>, i64, tensor<2xi1>, tensor<f32>) {
  %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<[4, 5, 6, 7]> : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %sum = linalg.add ins(%a, %b : tensor<4xi32>, tensor<4xi32>)
      outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %half = arith.constant dense<0.5> : tensor<2x2xf64>
  %e2 = tensor.empty() : tensor<2x2xf64>
  %prod = linalg.mul ins(%m, %half : tensor<2x2xf64>, tensor<2x2xf64>)
      outs(%e2 : tensor<2x2xf64>) -> tensor<2x2xf64>
  %c = arith.constant 42 : i64
  // Computed rather than constant tensors: returning those directly is
  // return-values.mlir.
  %x = arith.constant dense<[1, 5]> : tensor<2xi32>
  %y = arith.constant dense<[3, 2]> : tensor<2xi32>
  %e3 = tensor.empty() : tensor<2xi1>
  %flags = linalg.map ins(%x, %y : tensor<2xi32>, tensor<2xi32>) outs(%e3 : tensor<2xi1>)
    (%l: i32, %r: i32, %o: i1) {
      %lt = arith.cmpi slt, %l, %r : i32
      linalg.yield %lt : i1
    }
  %p = arith.constant dense<1.0> : tensor<f32>
  %q = arith.constant dense<1.5> : tensor<f32>
  %e4 = tensor.empty() : tensor<f32>
  %s = linalg.add ins(%p, %q : tensor<f32>, tensor<f32>) outs(%e4 : tensor<f32>) -> tensor<f32>
  return %sum, %prod, %c, %flags, %s
      : tensor<4xi32>, tensor<2x2xf64>, i64, tensor<2xi1>, tensor<f32>
}
