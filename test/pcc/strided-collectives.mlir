// Collectives take their operands where they are, so a column of a
// device's matrix reaches the runtime as a strided buffer: the runtime packs
// it. Results stored into a column go through a buffer of their own.
// RUN: pcc run %s | FileCheck %s

// Device d holds [[d, 10d, 100d], [d+1, ...], [d+2, ...]]; columns 0 and 2
// summed over the 2 devices: column 0 is [1, 3, 5], column 2 is 100x that.
// CHECK:      {{\[\[}}[  1 100]
// CHECK-NEXT:   [  3 300]
// CHECK-NEXT:   [  5 500]]
// CHECK-EMPTY:
// CHECK-NEXT:  {{\[}}[  1 100]
// CHECK-NEXT:   [  3 300]
// CHECK-NEXT:   [  5 500]]]
// Column 1 gathered over the devices: [0 10 20 | 10 20 30] on both.
// CHECK-NEXT: {{\[\[}} 0 10 20 10 20 30]
// CHECK-NEXT:  [ 0 10 20 10 20 30]]
func.func @main() -> (tensor<2x3x2xi32>, tensor<2x6xi32>) {
  %m = arith.constant dense<[[[0, 0, 0], [1, 10, 100], [2, 20, 200]],
                             [[1, 10, 100], [2, 20, 200], [3, 30, 300]]]>
      : tensor<2x3x3xi32>
  %sums, %gathered = spmd.pmap "i" (%x = %m : tensor<2x3x3xi32>)
      -> (tensor<2x3x2xi32>, tensor<2x6xi32>) {
    %c0 = tensor.extract_slice %x[0, 0] [3, 1] [1, 1] : tensor<3x3xi32> to tensor<3xi32>
    %c1 = tensor.extract_slice %x[0, 1] [3, 1] [1, 1] : tensor<3x3xi32> to tensor<3xi32>
    %c2 = tensor.extract_slice %x[0, 2] [3, 1] [1, 1] : tensor<3x3xi32> to tensor<3xi32>
    %s0 = spmd.psum %c0 over "i" : tensor<3xi32>
    %s2 = spmd.psum %c2 over "i" : tensor<3xi32>
    %e = tensor.empty() : tensor<3x2xi32>
    %i0 = tensor.insert_slice %s0 into %e[0, 0] [3, 1] [1, 1] : tensor<3xi32> into tensor<3x2xi32>
    %i1 = tensor.insert_slice %s2 into %i0[0, 1] [3, 1] [1, 1] : tensor<3xi32> into tensor<3x2xi32>
    %g = spmd.all_gather %c1 over "i" tiled : tensor<3xi32> -> tensor<6xi32>
    spmd.yield %i1, %g : tensor<3x2xi32>, tensor<6xi32>
  }
  return %sums, %gathered : tensor<2x3x2xi32>, tensor<2x6xi32>
}
