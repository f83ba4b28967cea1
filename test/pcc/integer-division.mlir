// Integer division by zero and INT_MIN / -1 have defined results, as in XLA
// (x / 0 = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; unsigned
// x / 0 = all ones), on the host and on device threads, JIT and compiled:
// never a signal. Each expected value is worked by hand below.
// RUN: rm -rf %t && mkdir %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.array([7, -7, 7, -2147483648, -2147483648, 0], np.int32)); np.save('%t/b.npy', np.array([2, 2, 0, -1, 0, 0], np.int32))"
// RUN: pcc run %s %t/a.npy %t/b.npy | FileCheck %s
// RUN: pcc compile %s -o %t/div && %t/div %t/a.npy %t/b.npy | FileCheck %s
// RUN: pcc run %s -e on_devices %t/a.npy %t/b.npy | FileCheck %s --check-prefix=DEVICES
// Divisions of constants, which the compiler folds: upstream's fold of
// floordivsi on constant tensors gave x / 0 = x where a later element
// divided cleanly.
// RUN: pcc run %s -e constants | FileCheck %s --check-prefix=CONSTANTS

// a = [7, -7, 7, INT_MIN, INT_MIN, 0], b = [2, 2, 0, -1, 0, 0]
// divsi: 7/2 = 3, -7/2 = -3 (toward zero), 7/0 = -1, INT_MIN/-1 = INT_MIN,
// INT_MIN/0 = -1, 0/0 = -1.
// CHECK:      [          3          -3          -1 -2147483648          -1          -1]
// remsi: 1, -1, 7 (x), 0, INT_MIN (x), 0 (x).
// CHECK-NEXT: [          1          -1           7           0 -2147483648           0]
// divui (a as unsigned: 7, 4294967289, 7, 2147483648, 2147483648, 0; b: 2,
// 2, 0, 4294967295, 0, 0): 3, 2147483644, all ones, 0, all ones, all ones.
// CHECK-NEXT: [         3 2147483644         -1          0         -1         -1]
// remui: 1, 1, 7 (x), 2147483648 (as i32: INT_MIN), INT_MIN (x), 0 (x).
// CHECK-NEXT: [          1           1           7 -2147483648 -2147483648           0]
// ceildivsi: 4, -3, -1, INT_MIN, -1, -1.
// CHECK-NEXT: [          4          -3          -1 -2147483648          -1          -1]
// floordivsi: 3, -4, -1, INT_MIN, -1, -1.
// CHECK-NEXT: [          3          -4          -1 -2147483648          -1          -1]
// ceildivui: 4, 2147483645, all ones, 1, all ones, all ones.
// CHECK-NEXT: [         4 2147483645         -1          1         -1         -1]
func.func @main(%a: tensor<6xi32>, %b: tensor<6xi32>)
    -> (tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>,
        tensor<6xi32>, tensor<6xi32>, tensor<6xi32>) {
  %q = arith.divsi %a, %b : tensor<6xi32>
  %r = arith.remsi %a, %b : tensor<6xi32>
  %u = arith.divui %a, %b : tensor<6xi32>
  %v = arith.remui %a, %b : tensor<6xi32>
  %c = arith.ceildivsi %a, %b : tensor<6xi32>
  %f = arith.floordivsi %a, %b : tensor<6xi32>
  %cu = arith.ceildivui %a, %b : tensor<6xi32>
  return %q, %r, %u, %v, %c, %f, %cu : tensor<6xi32>, tensor<6xi32>,
      tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>
}

// The same divisions on six devices, as scalars, followed by a sum over
// them: -1 + -3 + ... of divsi (3 - 3 - 1 + INT_MIN - 1 - 1 wraps to
// 2147483645) and of remsi (1 - 1 + 7 + 0 + INT_MIN + 0 = -2147483641).
// DEVICES: [2147483645 2147483645 2147483645 2147483645 2147483645 2147483645]
// DEVICES-NEXT: [-2147483641 -2147483641 -2147483641 -2147483641 -2147483641 -2147483641]
func.func @on_devices(%a: tensor<6xi32>, %b: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %q, %r = spmd.pmap "i" (%x = %a : tensor<6xi32>, %y = %b : tensor<6xi32>)
      -> (tensor<6xi32>, tensor<6xi32>) {
    %xs = tensor.extract %x[] : tensor<i32>
    %ys = tensor.extract %y[] : tensor<i32>
    %d = arith.divsi %xs, %ys : i32
    %m = arith.remsi %xs, %ys : i32
    %sd = spmd.psum %d over "i" : i32
    %sm = spmd.psum %m over "i" : i32
    spmd.yield %sd, %sm : i32, i32
  }
  return %q, %r : tensor<6xi32>, tensor<6xi32>
}

// [7, -7, 5] by [0, 0, 2]: divsi -1 -1 2; remsi 7 -7 1; divui -1 -1 2;
// remui 7 -7 (4294967289 as i32) 1; ceildivsi -1 -1 3; floordivsi -1 -1 2;
// ceildivui -1 -1 3.
// CONSTANTS:      [-1 -1  2]
// CONSTANTS-NEXT: [ 7 -7  1]
// CONSTANTS-NEXT: [-1 -1  2]
// CONSTANTS-NEXT: [ 7 -7  1]
// CONSTANTS-NEXT: [-1 -1  3]
// CONSTANTS-NEXT: [-1 -1  2]
// CONSTANTS-NEXT: [-1 -1  3]
func.func @constants()
    -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>,
        tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
  %a = arith.constant dense<[7, -7, 5]> : tensor<3xi32>
  %b = arith.constant dense<[0, 0, 2]> : tensor<3xi32>
  %q = arith.divsi %a, %b : tensor<3xi32>
  %r = arith.remsi %a, %b : tensor<3xi32>
  %u = arith.divui %a, %b : tensor<3xi32>
  %v = arith.remui %a, %b : tensor<3xi32>
  %c = arith.ceildivsi %a, %b : tensor<3xi32>
  %f = arith.floordivsi %a, %b : tensor<3xi32>
  %cu = arith.ceildivui %a, %b : tensor<3xi32>
  return %q, %r, %u, %v, %c, %f, %cu : tensor<3xi32>, tensor<3xi32>,
      tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
}
