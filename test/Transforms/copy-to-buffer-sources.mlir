// RUN: pcc-opt %s --pcc-copy-to-buffer-sources | FileCheck %s

// Each to_buffer of a ranked tensor reads a copy of it, read_only or not;
// one of an unranked tensor is left as it is.
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[T:.*]]: tensor<4xf32>, %[[D:.*]]: tensor<?xf32>, %[[U:.*]]: tensor<*xf32>)
// CHECK:      %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[T]]) : tensor<4xf32>
// CHECK-NEXT: bufferization.to_buffer %[[C1]] : tensor<4xf32> to memref<4xf32>
// CHECK:      %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[T]]) : tensor<4xf32>
// CHECK-NEXT: bufferization.to_buffer %[[C2]] read_only : tensor<4xf32> to memref<4xf32>
// CHECK:      %[[C3:.*]] = bufferization.alloc_tensor() copy(%[[D]]) : tensor<?xf32>
// CHECK-NEXT: bufferization.to_buffer %[[C3]] : tensor<?xf32> to memref<?xf32>
// CHECK-NEXT: bufferization.to_buffer %[[U]] : tensor<*xf32> to memref<*xf32>
func.func @buffers(%t: tensor<4xf32>, %d: tensor<?xf32>, %u: tensor<*xf32>)
    -> (memref<4xf32>, memref<4xf32>, memref<?xf32>, memref<*xf32>) {
  %a = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  %b = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %c = bufferization.to_buffer %d : tensor<?xf32> to memref<?xf32>
  %e = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  return %a, %b, %c, %e : memref<4xf32>, memref<4xf32>, memref<?xf32>, memref<*xf32>
}
