// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-outline-pmaps

func.func @inner(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-note @+1 {{the inner pmap}}
  %r = spmd.pmap "j" (%y = %x : tensor<2xf32>) -> (tensor<2xf32>) {
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<2xf32>
}

func.func @main(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<3x2xf32>) -> (tensor<3x2xf32>) {
    // expected-error @+1 {{calls @inner from inside an 'spmd.pmap', and that function runs a pmap of its own; write the inner pmap directly in the body (pcc does not inline calls into pmaps yet)}}
    %y = func.call @inner(%x) : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %y : tensor<2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

// Through another function: the error is at the call in the body, which is
// what must change, with notes for the way to the pmap.
func.func private @inner(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-note @+1 {{the inner pmap}}
  %r = spmd.pmap "j" (%y = %x : tensor<2xf32>) -> (tensor<2xf32>) {
    spmd.yield %y : tensor<f32>
  }
  return %r : tensor<2xf32>
}

func.func private @mid(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-note @+1 {{through this call of @inner}}
  %y = func.call @inner(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @main(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<3x2xf32>) -> (tensor<3x2xf32>) {
    // expected-error @+1 {{calls @mid from inside an 'spmd.pmap', and that function runs a pmap of its own}}
    %y = func.call @mid(%x) : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %y : tensor<2xf32>
  }
  return %r : tensor<3x2xf32>
}


// -----

// Outside a function there is no caller to launch the devices from.
// expected-error @+1 {{'spmd.pmap' op must be inside a 'func.func' to be compiled}}
spmd.pmap "i" size 2 {
  spmd.yield
}

// -----

// Devices get their own copies of tensors and scalars; a buffer would be
// shared memory.
func.func @memref_capture(%m: memref<4xf32>) {
  // expected-error @+1 {{'spmd.pmap' op uses a value of type 'memref<4xf32>' from outside its body; only tensors and scalars can be shared with the devices}}
  spmd.pmap "i" size 2 {
    %c = arith.constant 0 : index
    %v = memref.load %m[%c] : memref<4xf32>
    spmd.yield
  }
  return
}
