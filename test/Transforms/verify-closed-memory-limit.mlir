// With memory-limit (pcc run passes its --memory-limit), a value the
// program uses that is larger than the limit is rejected before anything
// runs, once; unused values and slices of arguments are not.
// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-verify-closed=memory-limit=4096

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // 2048 bytes: fine.
  %small = tensor.empty() : tensor<512xf32>
  // Unused: canonicalization removes it.
  %unused = tensor.empty() : tensor<2048xf32>
  // expected-error @+1 {{this value of type 'tensor<1025xf32>' takes 4100 bytes, more than the memory limit of 4096 bytes (--memory-limit)}}
  %big = tensor.empty() : tensor<1025xf32>
  %z = arith.constant 0.0 : f32
  // Computed into %big's buffer: not reported again.
  %f = linalg.fill ins(%z : f32) outs(%big : tensor<1025xf32>) -> tensor<1025xf32>
  %s = tensor.extract_slice %f[0] [4] [1] : tensor<1025xf32> to tensor<4xf32>
  %u = linalg.fill ins(%z : f32) outs(%small : tensor<512xf32>) -> tensor<512xf32>
  return %s : tensor<4xf32>
}
