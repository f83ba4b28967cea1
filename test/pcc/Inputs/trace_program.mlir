// A psum in a loop of 5 steps and an all_gather on 4 devices: what
// test/pcc/trace.test traces.
func.func @main(%a: tensor<4x1024xf32>) -> tensor<4x1024xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x1024xf32>) -> (tensor<4x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %out = scf.for %k = %c0 to %c5 step %c1 iter_args(%v = %x) -> (tensor<1024xf32>) {
      %s = spmd.psum %v over "i" : tensor<1024xf32>
      %e = math.exp %s : tensor<1024xf32>
      scf.yield %e : tensor<1024xf32>
    }
    %g = spmd.all_gather %out over "i" : tensor<1024xf32> -> tensor<4x1024xf32>
    %h = tensor.extract_slice %g[0, 0] [1, 1024] [1, 1] : tensor<4x1024xf32> to tensor<1024xf32>
    spmd.yield %h : tensor<1024xf32>
  }
  return %r : tensor<4x1024xf32>
}
