// Syntax errors in the spmd ops' custom forms: each names what was expected.
// RUN: pcc-opt %s -split-input-file -verify-diagnostics

func.func @unquoted_axis_name() {
  // expected-error @+1 {{expected the axis name in quotes, as in 'spmd.pmap "i" ...'}}
  spmd.pmap i size 2 {
    spmd.yield
  }
  return
}

// -----

func.func @missing_size() {
  // expected-error @+1 {{a 'spmd.pmap' without mapped operands needs its axis size: write 'size N' after the axis name}}
  spmd.pmap "i" -> (tensor<2xf32>) {
    %c = arith.constant 1.0 : f32
    spmd.yield %c : f32
  }
  return
}

// -----

func.func @missing_operand_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  spmd.pmap "i" (%x = %a) {
    spmd.yield
  }
  return
}

// -----

func.func @unquoted_collective_axis(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{expected an axis name in quotes, such as "i", or a list such as ["i", "j"]}}
    %r = spmd.psum %v over i : f32
    spmd.yield
  }
  return
}

// -----

func.func @unquoted_axis_in_list(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{expected an axis name in quotes}}
    %r = spmd.psum %v over ["i", j] : f32
    spmd.yield
  }
  return
}

// -----

func.func @missing_body() {
  // expected-error @+1 {{expected '{' to begin a region}}
  spmd.pmap "i" size 2
  return
}
