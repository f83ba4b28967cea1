// Arguments whose number, element type or shape does not match the entry's
// signature are errors that name the argument, the expected type and what the
// file holds.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/a.npy', np.zeros((4, 3), dtype=np.float32)); np.save('%t/flat.npy', np.zeros(12, dtype=np.float32)); np.save('%t/int.npy', np.zeros(12, dtype=np.int64)); np.save('%t/i64.npy', np.zeros((4, 3), dtype=np.int64)); np.save('%t/s.npy', np.int32(3)); np.save('%t/s1.npy', np.array([3], dtype=np.int32))"
// RUN: printf 'not an npy file' > %t/garbage.npy

// RUN: pcc run %s %t/a.npy %t/s.npy | FileCheck %s --check-prefix=OK
// OK: [3. 3. 3. 3.]

// RUN: not pcc run %s %t/int.npy %t/s.npy 2>&1 | FileCheck %s --check-prefix=DTYPE-SHAPE
// DTYPE-SHAPE: pcc: error: argument #0 of @main expects tensor<4x3xf32> (float32, shape (4, 3)), but {{.*}}int.npy holds int64 of shape (12,)

// RUN: not pcc run %s %t/flat.npy %t/s.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: pcc: error: argument #0 of @main expects tensor<4x3xf32> (float32, shape (4, 3)), but {{.*}}flat.npy holds float32 of shape (12,)

// RUN: not pcc run %s %t/i64.npy %t/s.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: pcc: error: argument #0 of @main expects tensor<4x3xf32> (float32, shape (4, 3)), but {{.*}}i64.npy holds int64 of shape (4, 3)

// A scalar argument needs a 0-d array.
// RUN: not pcc run %s %t/a.npy %t/s1.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: pcc: error: argument #1 of @main expects i32 (int32, shape ()), but {{.*}}s1.npy holds int32 of shape (1,)

// RUN: not pcc run %s %t/a.npy 2>&1 | FileCheck %s --check-prefix=TOO-FEW
// TOO-FEW: pcc: error: @main takes 2 arguments (tensor<4x3xf32>, i32), but 1 .npy file was given
// RUN: not pcc run %s 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: pcc: error: @main takes 2 arguments (tensor<4x3xf32>, i32), but 0 .npy files were given
// RUN: not pcc run %s %t/a.npy %t/s.npy %t/s.npy 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: pcc: error: @main takes 2 arguments (tensor<4x3xf32>, i32), but 3 .npy files were given

// RUN: not pcc run %s %t/a.npy %t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: pcc: error: {{.*}}missing.npy: cannot open the file
// RUN: not pcc run %s %t/garbage.npy %t/s.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: pcc: error: {{.*}}garbage.npy: not a NumPy .npy file

func.func @main(%a: tensor<4x3xf32>, %s: i32) -> tensor<4xf32> {
  %f = arith.sitofp %s : i32 to f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
