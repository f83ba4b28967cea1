// A buffer that an scf.forall body allocates is freed in the body: the forall
// becomes an scf.parallel on cpu and an scf.for on cuda (whose host runs the
// iterations one after another) before deallocation, which frees what those
// loops' bodies allocate but would leave a forall's buffers allocated.
// RUN: pcc-opt %s --pass-pipeline="builtin.module(pcc-cpu-pipeline)" --mlir-print-ir-after=bufferization-lower-deallocations -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: pcc-opt %s --pass-pipeline="builtin.module(pcc-cuda-pipeline{simulate})" --mlir-print-ir-after=bufferization-lower-deallocations -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,CUDA
// RUN: pcc run %s | FileCheck %s --check-prefix=RESULT
// RUN: pcc run --backend=cuda-sim %s | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func private @main_pmap(
// CPU: scf.parallel
// CUDA: scf.for
// CHECK: %[[T:.*]] = memref.alloc() {{.*}} : memref<2xf32>
// CHECK: linalg.mul {{.*}} outs(%[[T]] :
// CHECK: memref.dealloc %[[T]] : memref<2xf32>
// CHECK: pcc_collective

// x * x + x of rows 0..7 and 8..15, summed over the two devices.
// RESULT: 72. 92. 116. 144. 176. 212. 252. 296.]{{$}}
// RESULT-NEXT: 72. 92. 116. 144. 176. 212. 252. 296.]]
func.func @main() -> tensor<2x8xf32> {
  %x = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                             [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<2x8xf32>
  %r = spmd.pmap "i" (%a = %x : tensor<2x8xf32>) -> (tensor<2x8xf32>) {
    %c2 = arith.constant 2 : index
    %init = tensor.empty() : tensor<8xf32>
    %o = scf.forall (%k) in (4) shared_outs(%out = %init) -> (tensor<8xf32>) {
      %off = arith.muli %k, %c2 : index
      %s = tensor.extract_slice %a[%off] [2] [1] : tensor<8xf32> to tensor<2xf32>
      %t = tensor.empty() : tensor<2xf32>
      %m = linalg.mul ins(%s, %s : tensor<2xf32>, tensor<2xf32>) outs(%t : tensor<2xf32>) -> tensor<2xf32>
      %n = linalg.add ins(%m, %s : tensor<2xf32>, tensor<2xf32>) outs(%t : tensor<2xf32>) -> tensor<2xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %n into %out[%off] [2] [1] : tensor<2xf32> into tensor<8xf32>
      }
    }
    %p = spmd.psum %o over "i" : tensor<8xf32>
    spmd.yield %p : tensor<8xf32>
  }
  return %r : tensor<2x8xf32>
}
