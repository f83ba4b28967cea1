// A bool argument whose bytes are not 0 or 1 (NumPy reads any non-zero byte
// as True) arrives as exactly 0 or 1: extui gives 1, not the raw byte, and
// xori negates it.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/b.npy', np.frombuffer(bytes([0, 2, 255, 1]), np.bool_))"
// RUN: pcc run %s %t/b.npy | FileCheck %s
// RUN: pcc compile %s -o %t/bools && %t/bools %t/b.npy | FileCheck %s
// CHECK: [0 1 1 1]
// CHECK-NEXT: [ True False False False]
func.func @main(%b: tensor<4xi1>) -> (tensor<4xi8>, tensor<4xi1>) {
  %wide = arith.extui %b : tensor<4xi1> to tensor<4xi8>
  %true = arith.constant dense<true> : tensor<4xi1>
  %not = arith.xori %b, %true : tensor<4xi1>
  return %wide, %not : tensor<4xi8>, tensor<4xi1>
}
