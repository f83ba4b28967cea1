// Collectives that a linalg op's body runs other than directly in a
// parallel-only body: in a reduction, under scf.if and scf.for, and a whole
// pmap in a body, directly or through a call. The cuda backend runs such a body on
// the host (a loop launching what kernels it can); it used to make it a
// kernel, and crashed.

// Each element of the sum over j of the maximum over devices.
func.func @reduction_body(%a: tensor<4x5x6xf32>) -> tensor<4x5xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x5x6xf32>) -> (tensor<4x5xf32>) {
    %z = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<5xf32>
    %f = linalg.fill ins(%z : f32) outs(%init : tensor<5xf32>) -> tensor<5xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<5x6xf32>) outs(%f : tensor<5xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = spmd.pmax %in over "i" : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<5xf32>
    spmd.yield %g : tensor<5xf32>
  }
  return %r : tensor<4x5xf32>
}

// Columns 0 to 2 take the maximum over devices, the others stay.
func.func @if_body(%a: tensor<3x5xi32>) -> tensor<3x5xi32> {
  %r = spmd.pmap "i" (%x = %a : tensor<3x5xi32>) -> (tensor<3x5xi32>) {
    %e = tensor.empty() : tensor<5xi32>
    %g = linalg.generic {indexing_maps = [affine_map<(a) -> (a)>, affine_map<(a) -> (a)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<5xi32>) outs(%e : tensor<5xi32>) {
    ^bb0(%in: i32, %o: i32):
      %idx = linalg.index 0 : index
      %c3 = arith.constant 3 : index
      %lt = arith.cmpi ult, %idx, %c3 : index
      %v = scf.if %lt -> (i32) {
        %m = spmd.pmax %in over "i" : i32
        scf.yield %m : i32
      } else {
        scf.yield %in : i32
      }
      linalg.yield %v : i32
    } -> tensor<5xi32>
    spmd.yield %g : tensor<5xi32>
  }
  return %r : tensor<3x5xi32>
}

// Two sums in a row: three times each column's sum.
func.func @for_body(%a: tensor<3x5xi32>) -> tensor<3x5xi32> {
  %r = spmd.pmap "i" (%x = %a : tensor<3x5xi32>) -> (tensor<3x5xi32>) {
    %e = tensor.empty() : tensor<5xi32>
    %g = linalg.generic {indexing_maps = [affine_map<(a) -> (a)>, affine_map<(a) -> (a)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<5xi32>) outs(%e : tensor<5xi32>) {
    ^bb0(%in: i32, %o: i32):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %res = scf.for %it = %c0 to %c2 step %c1 iter_args(%acc = %in) -> (i32) {
        %s = spmd.psum %acc over "i" : i32
        scf.yield %s : i32
      }
      linalg.yield %res : i32
    } -> tensor<5xi32>
    spmd.yield %g : tensor<5xi32>
  }
  return %r : tensor<3x5xi32>
}

// Row t's maximum, by a pmap of a device per column.
func.func private @row_max(%a: tensor<4x3xf32>, %t: index) -> f32 {
  %p = spmd.pmap "i" size 3 -> (tensor<3xf32>) {
    %k = spmd.axis_index "i" : index
    %v = tensor.extract %a[%t, %k] : tensor<4x3xf32>
    %s = spmd.pmax %v over "i" : f32
    spmd.yield %s : f32
  }
  %c0 = arith.constant 0 : index
  %x = tensor.extract %p[%c0] : tensor<3xf32>
  return %x : f32
}

// Each row's maximum, a pmap per row, through a call.
func.func @call_body(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(a) -> (a)>], iterator_types = ["parallel"]}
      outs(%init : tensor<4xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %x = func.call @row_max(%a, %t) : (tensor<4x3xf32>, index) -> f32
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// Each row's maximum, a pmap per row.
func.func @pmap_in_body(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(a) -> (a)>], iterator_types = ["parallel"]}
      outs(%init : tensor<4xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %p = spmd.pmap "i" size 3 -> (tensor<3xf32>) {
      %k = spmd.axis_index "i" : index
      %v = tensor.extract %a[%t, %k] : tensor<4x3xf32>
      %s = spmd.pmax %v over "i" : f32
      spmd.yield %s : f32
    }
    %c0 = arith.constant 0 : index
    %x = tensor.extract %p[%c0] : tensor<3xf32>
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}
