// -e NAME / --entry=NAME picks the entry function; every other function is
// compiled too but not called.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/v.npy', np.array([1.5, -2], dtype=np.float64))"
// RUN: pcc run %s | FileCheck %s --check-prefix=MAIN
// RUN: pcc run %s -e negate %t/v.npy | FileCheck %s --check-prefix=NEGATE
// RUN: pcc run %s --entry=negate %t/v.npy | FileCheck %s --check-prefix=NEGATE
// RUN: pcc run %s --entry negate %t/v.npy | FileCheck %s --check-prefix=NEGATE
// RUN: not pcc run %s -e nothing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pcc run %s -e negate 2>&1 | FileCheck %s --check-prefix=COUNT

// MAIN: 7
// NEGATE: [-1.5  2. ]
// MISSING: pcc: error: the program has no function @nothing (choose the entry function with -e NAME)
// COUNT: pcc: error: @negate takes 1 argument (tensor<2xf64>), but 0 .npy files were given

func.func @main() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}

func.func @negate(%v: tensor<2xf64>) -> tensor<2xf64> {
  %e = tensor.empty() : tensor<2xf64>
  %r = linalg.negf ins(%v : tensor<2xf64>) outs(%e : tensor<2xf64>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}
