// RUN: pcc-opt %s -split-input-file -verify-diagnostics

// Values that pass through memory keep what they vary along: a read of
// memory varies along every axis that a write in the pmaps varies along.

func.func @index_through_buffer(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %k = spmd.axis_index "i" : index
    %t = tensor.empty() : tensor<index>
    %m = bufferization.to_buffer %t : tensor<index> to memref<index>
    memref.store %k, %m[] : memref<index>
    %v = memref.load %m[] : memref<index>
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %v, %c0 : index
    // expected-note @+1 {{the device-dependent control flow is here}}
    %y = scf.if %first -> (tensor<4xf32>) {
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i"}}
      %s = spmd.psum %x over "i" : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// A write under a condition that varies writes on some devices only: the
// buffer then varies too, though the value written does not.
func.func @write_under_varying_condition(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %k = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = tensor.empty() : tensor<index>
    %m = bufferization.to_buffer %t : tensor<index> to memref<index>
    memref.store %c0, %m[] : memref<index>
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      memref.store %c1, %m[] : memref<index>
    }
    %v = memref.load %m[] : memref<index>
    %one = arith.cmpi eq, %v, %c1 : index
    // expected-note @+1 {{the device-dependent control flow is here}}
    %y = scf.if %one -> (tensor<4xf32>) {
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i"}}
      %s = spmd.psum %x over "i" : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// Memory that only ever holds what every device agrees on stays uniform.
func.func @uniform_buffer(%a: tensor<2x4xf32>, %n: index) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
    %t = tensor.empty() : tensor<index>
    %m = bufferization.to_buffer %t : tensor<index> to memref<index>
    memref.store %n, %m[] : memref<index>
    %v = memref.load %m[] : memref<index>
    %c0 = arith.constant 0 : index
    %zero = arith.cmpi eq, %v, %c0 : index
    %y = scf.if %zero -> (tensor<4xf32>) {
      %s = spmd.psum %x over "i" : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    spmd.yield %y : tensor<4xf32>
  }
  return %r : tensor<2x4xf32>
}
