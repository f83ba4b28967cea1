// Arguments come from .npy files, in order; results can be saved as .npy
// files that are byte-identical to what np.save writes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/a.npy', np.arange(12, dtype=np.float32).reshape(4, 3)); np.save('%t/s.npy', np.float32(0.5)); np.save('%t/i.npy', np.array([1, -2, 3], dtype=np.int8)); np.save('%t/h.npy', np.array([0.1, 2.5, -3], dtype=np.float16)); np.save('%t/b.npy', np.array([[True, False], [False, False]]))"
// RUN: pcc run %s %t/a.npy %t/s.npy %t/i.npy %t/h.npy %t/b.npy | FileCheck %s
// RUN: pcc run %s %t/a.npy %t/s.npy %t/i.npy %t/h.npy %t/b.npy --save-results=%t/out/nested > %t/stdout.txt
// RUN: FileCheck %s < %t/stdout.txt
// RUN: /usr/bin/python3 -c "import io, numpy as np; a = np.arange(12, dtype=np.float32).reshape(4, 3); expected = [a * np.float32(0.5), a + np.float32(1), np.array([2, -4, 6], dtype=np.int8), np.float32(1.5), np.array([0.1, 2.5, -3], dtype=np.float16) * 2, np.array([[False, True], [True, True]])]; files = [open('%t/out/nested/result%%d.npy' %% k, 'rb').read() for k in range(6)]; saved = [np.save(f := io.BytesIO(), np.asarray(e)) or f.getvalue() for e in expected]; print('saved', sum(x == y for x, y in zip(files, saved)), 'of', len(expected))" | FileCheck --check-prefix=SAVED %s

// CHECK:      {{\[}}[0.  0.5 1. ]
// CHECK-NEXT:  [1.5 2.  2.5]
// CHECK-NEXT:  [3.  3.5 4. ]
// CHECK-NEXT:  [4.5 5.  5.5]]
// CHECK-NEXT: {{\[}}[ 1.  2.  3.]
// CHECK-NEXT:  [ 4.  5.  6.]
// CHECK-NEXT:  [ 7.  8.  9.]
// CHECK-NEXT:  [10. 11. 12.]]
// CHECK-NEXT: [ 2 -4  6]
// CHECK-NEXT: 1.5
// CHECK-NEXT: [ 0.2  5.  -6. ]
// CHECK-NEXT: {{\[}}[False  True]
// CHECK-NEXT:  [ True  True]]
// CHECK-EMPTY:

// SAVED: saved 6 of 6

func.func @main(%a: tensor<4x3xf32>, %s: f32, %i: tensor<3xi8>,
                %h: tensor<3xf16>, %b: tensor<2x2xi1>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xi8>, f32, tensor<3xf16>,
        tensor<2x2xi1>) {
  %e = tensor.empty() : tensor<4x3xf32>
  %fill = linalg.fill ins(%s : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %scaled = linalg.mul ins(%a, %fill : tensor<4x3xf32>, tensor<4x3xf32>)
      outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %ei = tensor.empty() : tensor<3xi8>
  %twice = linalg.add ins(%i, %i : tensor<3xi8>, tensor<3xi8>)
      outs(%ei : tensor<3xi8>) -> tensor<3xi8>
  %one = arith.constant 1.0 : f32
  %t = arith.addf %s, %one : f32
  %eh = tensor.empty() : tensor<3xf16>
  %h2 = linalg.add ins(%h, %h : tensor<3xf16>, tensor<3xf16>)
      outs(%eh : tensor<3xf16>) -> tensor<3xf16>
  %eb = tensor.empty() : tensor<2x2xi1>
  %nb = linalg.map ins(%b : tensor<2x2xi1>) outs(%eb : tensor<2x2xi1>)
    (%x: i1, %o: i1) {
      %true = arith.constant true
      %n = arith.xori %x, %true : i1
      linalg.yield %n : i1
    }
  %fill1 = linalg.fill ins(%one : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %plus1 = linalg.add ins(%a, %fill1 : tensor<4x3xf32>, tensor<4x3xf32>)
      outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %scaled, %plus1, %twice, %t, %h2, %nb
      : tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xi8>, f32, tensor<3xf16>,
        tensor<2x2xi1>
}
