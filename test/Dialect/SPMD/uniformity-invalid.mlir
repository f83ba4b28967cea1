// A collective that only some devices of its axes reach would hang real
// hardware: the verifier rejects it and points at the control flow.
// RUN: pcc-opt %s -split-input-file -verify-diagnostics

func.func @branch_on_axis_index(%a: tensor<4xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4xf32>) {
    %k = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    // expected-note @+1 {{the device-dependent control flow is here}}
    scf.if %first {
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i": the enclosing 'scf.if' branches on a value that differs between them, so the program would hang; make that value the same on every device (for example, compute it from a collective's result) or move the collective out of the 'scf.if'}}
      %s = spmd.psum %x over "i" : tensor<f32>
    }
    spmd.yield
  }
  return
}

// -----

func.func @loop_bound_from_mapped_data(%a: tensor<4xi64>, %b: tensor<4xf32>) {
  spmd.pmap "i" (%n = %a : tensor<4xi64>, %x = %b : tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %count = tensor.extract %n[] : tensor<i64>
    %bound = arith.index_cast %count : i64 to index
    // expected-note @+1 {{the device-dependent control flow is here}}
    scf.for %k = %c0 to %bound step %c1 {
      // expected-error @+1 {{'spmd.all_gather' op runs on only some devices of axis "i": the enclosing 'scf.for' takes its loop bounds from a value that differs between them}}
      %g = spmd.all_gather %x over "i" : tensor<f32> -> tensor<4xf32>
    }
    spmd.yield
  }
  return
}

// -----

func.func @while_on_mapped_data(%a: tensor<4xi32>) {
  spmd.pmap "i" (%x = %a : tensor<4xi32>) {
    %v = tensor.extract %x[] : tensor<i32>
    %limit = arith.constant 100 : i32
    // expected-note @+1 {{the device-dependent control flow is here}}
    %out = scf.while (%cur = %v) : (i32) -> i32 {
      %go = arith.cmpi slt, %cur, %limit : i32
      scf.condition(%go) %cur : i32
    } do {
    ^bb0(%c: i32):
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i": the enclosing 'scf.while' loops on a condition computed from a value that differs between them}}
      %s = spmd.psum %c over "i" : i32
      scf.yield %s : i32
    }
    spmd.yield
  }
  return
}

// -----

// The condition varies through an scf.if result chosen by axis_index.
func.func @control_dependence_through_results() {
  spmd.pmap "i" size 4 {
    %k = spmd.axis_index "i" : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    %true = arith.constant true
    %false = arith.constant false
    %flag = scf.if %first -> i1 {
      scf.yield %true : i1
    } else {
      scf.yield %false : i1
    }
    %one = arith.constant 1.0 : f32
    // expected-note @+1 {{the device-dependent control flow is here}}
    scf.if %flag {
      // expected-error @+1 {{'spmd.pmin' op runs on only some devices of axis "i"}}
      %m = spmd.pmin %one over "i" : f32
    }
    spmd.yield
  }
  return
}

// -----

// A loop-carried value becomes per-device after the first iteration.
func.func @loop_carried_divergence(%a: tensor<4xi32>) {
  spmd.pmap "i" (%x = %a : tensor<4xi32>) {
    %v = tensor.extract %x[] : tensor<i32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> i32 {
      %positive = arith.cmpi sgt, %acc, %zero : i32
      // expected-note @+1 {{the device-dependent control flow is here}}
      scf.if %positive {
        // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i"}}
        %s = spmd.psum %acc over "i" : i32
      }
      %next = arith.addi %acc, %v : i32
      scf.yield %next : i32
    }
    spmd.yield
  }
  return
}

// -----

// Over both axes of a grid, a branch on the inner index diverges.
func.func @grid_branch_on_inner_axis() {
  spmd.pmap "i" size 2 {
    spmd.pmap "j" size 3 {
      %j = spmd.axis_index "j" : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %j, %c0 : index
      %one = arith.constant 1.0 : f32
      // expected-note @+1 {{the device-dependent control flow is here}}
      scf.if %first {
        // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "j"}}
        %s = spmd.psum %one over ["i", "j"] : f32
      }
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

// A mapped operand of an inner pmap that came from the outer axis varies
// along the outer axis too.
func.func @inner_pmap_inherits_outer_variance(%a: tensor<2x3xi8>) {
  spmd.pmap "i" (%row = %a : tensor<2x3xi8>) {
    spmd.pmap "j" (%flag = %row : tensor<3xi8>) {
      %v = tensor.extract %flag[] : tensor<i8>
      %zero = arith.constant 0 : i8
      %b = arith.cmpi ne, %v, %zero : i8
      %one = arith.constant 1.0 : f32
      // expected-note @+1 {{the device-dependent control flow is here}}
      scf.if %b {
        // expected-error @+1 {{'spmd.psum' op runs on only some devices of axes "i", "j"}}
        %s = spmd.psum %one over ["i", "j"] : f32
      }
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

// A linalg op's body runs once per element: over a slice whose size
// differs between devices, a collective in it runs a different number of
// times on each.
func.func @generic_over_device_sized_slice(%a: tensor<4x8xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x8xf32>) {
    %k = spmd.axis_index "i" : index
    %s = tensor.extract_slice %x[0] [%k] [1] : tensor<8xf32> to tensor<?xf32>
    %e = tensor.empty(%k) : tensor<?xf32>
    // expected-note @+1 {{the device-dependent control flow is here}}
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%in: f32, %o: f32):
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i": the enclosing 'linalg.generic' depends on a value that differs between them}}
      %t = spmd.psum %in over "i" : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    spmd.yield
  }
  return
}
