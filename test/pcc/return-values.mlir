// The entry may return a constant tensor or one of its arguments unchanged
// (buffers it does not own: deallocation clones them, and the pipeline
// lowers the clones).
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/a.npy', np.array([1, 2, 3], dtype=np.int32))"
// RUN: pcc run %s %t/a.npy | FileCheck %s

// CHECK:      [1 2 3]
// CHECK-NEXT: [7 8]
// CHECK-NEXT: 2.5
func.func @main(%a: tensor<3xi32>) -> (tensor<3xi32>, tensor<2xi64>, tensor<f32>) {
  %c = arith.constant dense<[7, 8]> : tensor<2xi64>
  %s = arith.constant dense<2.5> : tensor<f32>
  return %a, %c, %s : tensor<3xi32>, tensor<2xi64>, tensor<f32>
}
