// One case per spmd verifier diagnostic (the rules are in docs/language.md).
// RUN: pcc-opt %s -split-input-file -verify-diagnostics

func.func @psum_outside_pmap(%v: f32) -> f32 {
  // expected-error @+1 {{'spmd.psum' op must be inside an 'spmd.pmap': it runs across the devices of a pmap axis}}
  %r = spmd.psum %v over "i" : f32
  return %r : f32
}

// -----

func.func @axis_index_outside_pmap() -> index {
  // expected-error @+1 {{'spmd.axis_index' op must be inside an 'spmd.pmap'}}
  %r = spmd.axis_index "i" : index
  return %r : index
}

// -----

func.func @unbound_axis(%v: f32) {
  spmd.pmap "i" size 2 {
    spmd.pmap "j" size 3 {
      // expected-error @+1 {{'spmd.pmax' op unbound axis name "k"; axes in scope: "i", "j"}}
      %r = spmd.pmax %v over "k" : f32
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

func.func @unbound_axis_in_list(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op unbound axis name "j"; axes in scope: "i"}}
    %r = spmd.psum %v over ["i", "j"] : f32
    spmd.yield
  }
  return
}

// -----

func.func @repeated_axis(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op names axis "i" twice}}
    %r = spmd.psum %v over ["i", "i"] : f32
    spmd.yield
  }
  return
}

// -----

// A device function's grid is not limited to 2^63 devices in total (only
// pmap nests are), so a collective over all of it can span more.
func.func private @group_too_large(%device: i64)
    attributes {spmd.grid_axes = ["i", "j"], spmd.grid_sizes = array<i64: 4294967296, 4294967296>} {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'spmd.psum' op spans more devices than fit in 64 bits}}
  %r = spmd.psum %c over ["i", "j"] : f32
  return
}

// -----

func.func @no_axis(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op needs at least one axis name}}
    %r = spmd.psum %v over [] : f32
    spmd.yield
  }
  return
}

// -----

func.func @reused_axis_name() {
  // expected-note @+1 {{axis "i" is bound here}}
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.pmap' op reuses the axis name "i" of an enclosing 'spmd.pmap'; give each nested pmap its own axis name}}
    spmd.pmap "i" size 3 {
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

func.func @empty_axis_name() {
  // expected-error @+1 {{'spmd.pmap' op needs a non-empty axis name}}
  spmd.pmap "" size 2 {
    spmd.yield
  }
  return
}

// -----

func.func @different_leading_sizes(%a: tensor<4x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #1 ('tensor<3xf32>') has leading dimension 3, but the axis size is 4 (the leading dimension of mapped operand #0); all mapped operands are split along one axis}}
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>, %y = %b : tensor<3xf32>) {
    spmd.yield
  }
  return
}

// -----

func.func @contradicting_size(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'spmd.pmap' op 'size 8' contradicts the leading dimension 4 of mapped operand #0 ('tensor<4x3xf32>'); write 'size 4' or leave 'size' out}}
  spmd.pmap "i" size 8 (%x = %a : tensor<4x3xf32>) {
    spmd.yield
  }
  return
}

// -----

func.func @zero_size() {
  // expected-error @+1 {{'spmd.pmap' op needs an axis size of at least 1, got 0}}
  spmd.pmap "i" size 0 {
    spmd.yield
  }
  return
}

// -----

func.func @rank0_mapped(%a: tensor<f32>) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #0 of type 'tensor<f32>' has no leading dimension to split across devices; use it inside the body without mapping it (every device then sees the whole value)}}
  spmd.pmap "i" size 2 (%x = %a : tensor<f32>) {
    spmd.yield
  }
  return
}

// -----

func.func @dynamic_mapped(%a: tensor<4x?xf32>) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #0 must have a static shape, got 'tensor<4x?xf32>'}}
  spmd.pmap "i" (%x = %a : tensor<4x?xf32>) {
    spmd.yield
  }
  return
}

// -----

func.func @dynamic_leading(%a: tensor<?x3xf32>) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #0 must have a static shape, got 'tensor<?x3xf32>'}}
  spmd.pmap "i" (%x = %a : tensor<?x3xf32>) {
    spmd.yield
  }
  return
}

// -----

func.func @scalar_mapped(%a: f32) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #0 must be a ranked tensor, got 'f32'}}
  spmd.pmap "i" size 2 (%x = %a : f32) {
    spmd.yield
  }
  return
}

// -----

func.func @unsupported_mapped_type(%a: tensor<4xui32>) {
  // expected-error @+1 {{'spmd.pmap' op mapped operand #0 has unsupported element type 'ui32'; expected i8, i16, i32, i64, f16, bf16, f32 or f64}}
  spmd.pmap "i" (%x = %a : tensor<4xui32>) {
    spmd.yield
  }
  return
}

// -----

func.func @bad_block_argument(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'spmd.pmap' op body argument #0 has type 'tensor<4x3xf32>', but each device's slice of mapped operand #0 has type 'tensor<3xf32>'}}
  "spmd.pmap"(%a) <{axis_name = "i", size = 4 : i64}> ({
  ^bb0(%x: tensor<4x3xf32>):
    "spmd.yield"() : () -> ()
  }) : (tensor<4x3xf32>) -> ()
  return
}

// -----

func.func @missing_block_argument(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{'spmd.pmap' op body takes 0 arguments, but there are 1 mapped operands}}
  "spmd.pmap"(%a) <{axis_name = "i", size = 4 : i64}> ({
    "spmd.yield"() : () -> ()
  }) : (tensor<4x3xf32>) -> ()
  return
}

// -----

func.func @yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4xf32>) -> (tensor<4xf32>) {
    // expected-error @+1 {{'spmd.yield' op yields 2 values, but the enclosing 'spmd.pmap' has 1 results}}
    spmd.yield %x, %x : tensor<f32>, tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @result_type(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<3xf32>) {
    // expected-error @+1 {{'spmd.yield' op operand #0 ('tensor<3xf32>') stacks to 'tensor<4x3xf32>' over 4 devices, but result #0 of the enclosing 'spmd.pmap' has type 'tensor<3xf32>'}}
    spmd.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

func.func @yield_index() -> tensor<2xindex> {
  %r = spmd.pmap "i" size 2 -> (tensor<2xindex>) {
    %k = spmd.axis_index "i" : index
    // expected-error @+1 {{'spmd.yield' op operand #0 has unsupported element type 'index'; expected i8, i16, i32, i64, f16, bf16, f32 or f64 (convert index values with arith.index_cast)}}
    spmd.yield %k : index
  }
  return %r : tensor<2xindex>
}

// -----

func.func @yield_vector(%v: vector<4xf32>) -> tensor<2x4xf32> {
  %r = spmd.pmap "i" size 2 -> (tensor<2x4xf32>) {
    // expected-error @+1 {{'spmd.yield' op operand #0 must be a tensor or a scalar, got 'vector<4xf32>'}}
    spmd.yield %v : vector<4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @missing_yield() {
  // expected-error @+1 {{the body of 'spmd.pmap' must end with 'spmd.yield', giving one value per result}}
  spmd.pmap "i" size 2 {
    %c = arith.constant 0 : i32
  }
  return
}

// -----

func.func @yield_outside_pmap() {
  // expected-error @+1 {{'spmd.yield' op expects parent op 'spmd.pmap'}}
  spmd.yield
}

// -----

func.func @pmean_integer(%a: tensor<4xi32>) {
  spmd.pmap "i" (%x = %a : tensor<4xi32>) {
    // expected-error @+1 {{'spmd.pmean' op needs a floating-point operand, got element type 'i32'; for integers use 'spmd.psum' and divide}}
    %m = spmd.pmean %x over "i" : tensor<i32>
    spmd.yield
  }
  return
}

// -----

func.func @unsupported_collective_type(%v: ui8) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op operand #0 must be a scalar or statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64, but got 'ui8'}}
    %r = spmd.psum %v over "i" : ui8
    spmd.yield
  }
  return
}

// -----

func.func @i1_reduction(%v: i1) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.pmax' op operand #0 must be a scalar or statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64, but got 'i1'}}
    %r = spmd.pmax %v over "i" : i1
    spmd.yield
  }
  return
}

// -----

func.func @index_reduction() {
  spmd.pmap "i" size 2 {
    %k = spmd.axis_index "i" : index
    // expected-error @+1 {{'spmd.psum' op operand #0 must be a scalar or statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64, but got 'index'}}
    %r = spmd.psum %k over "i" : index
    spmd.yield
  }
  return
}

// -----

func.func @dynamic_collective(%v: tensor<?xf32>) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op operand #0 must be a scalar or statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64, but got 'tensor<?xf32>'}}
    %r = spmd.psum %v over "i" : tensor<?xf32>
    spmd.yield
  }
  return
}

// -----

func.func @vector_collective(%v: vector<4xf32>) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op operand #0 must be a scalar or statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64, but got 'vector<4xf32>'}}
    %r = spmd.psum %v over "i" : vector<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_result(%a: tensor<4x3xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>) {
    // expected-error @+1 {{'spmd.all_gather' op result type 'tensor<3x4xf32>' does not match the gathered value: 4 devices' 'tensor<3xf32>' stacked at axis 0 give 'tensor<4x3xf32>'}}
    %g = spmd.all_gather %x over "i" : tensor<3xf32> -> tensor<3x4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_tiled_result(%a: tensor<4x3xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>) {
    // expected-error @+1 {{'spmd.all_gather' op result type 'tensor<4x3xf32>' does not match the gathered value: 4 devices' 'tensor<3xf32>' concatenated along axis 0 give 'tensor<12xf32>'}}
    %g = spmd.all_gather %x over "i" tiled : tensor<3xf32> -> tensor<4x3xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_axis_range(%a: tensor<4x3xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>) {
    // expected-error @+1 {{'spmd.all_gather' op axis 2 is out of range for a rank-1 operand; expected 0 to 1}}
    %g = spmd.all_gather %x over "i" axis 2 : tensor<3xf32> -> tensor<3x4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_negative_axis(%a: tensor<4x3xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>) {
    // expected-error @+1 {{'spmd.all_gather' op axis -1 is out of range for a rank-1 operand; expected 0 to 1}}
    %g = spmd.all_gather %x over "i" axis -1 : tensor<3xf32> -> tensor<3x4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_tiled_axis_range(%a: tensor<4x3xf32>) {
  spmd.pmap "i" (%x = %a : tensor<4x3xf32>) {
    // expected-error @+1 {{'spmd.all_gather' op axis 1 is out of range for a tiled gather of a rank-1 operand; expected 0 to 0}}
    %g = spmd.all_gather %x over "i" axis 1 tiled : tensor<3xf32> -> tensor<3x4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_tiled_scalar(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_gather' op 'tiled' concatenates along an existing dimension, but the operand is a scalar; leave out 'tiled' to stack the values}}
    %g = spmd.all_gather %v over "i" tiled : f32 -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_gather_tiled_overflow(%v: tensor<4611686018427387904xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_gather' op result dimension overflows 64 bits}}
    %g = spmd.all_gather %v over "i" tiled : tensor<4611686018427387904xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @axis_index_type() {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{invalid kind of type specified: expected builtin.index, but found 'i32'}}
    %k = spmd.axis_index "i" : i32
    spmd.yield
  }
  return
}


// -----

func.func @grid_too_large() {
  spmd.pmap "i" size 4294967296 {
    // expected-error @+1 {{'spmd.pmap' op makes the device grid larger than 2^63 devices}}
    spmd.pmap "j" size 4294967296 {
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

// Inner pmaps side by side multiply the grid as nested ones do: here
// 1 x 2^32 x 2^32 devices.
func.func @sibling_grid_too_large() {
  spmd.pmap "i" size 1 {
    spmd.pmap "j" size 4294967296 {
      spmd.yield
    }
    // expected-error @+1 {{'spmd.pmap' op makes the device grid larger than 2^63 devices}}
    spmd.pmap "k" size 4294967296 {
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

// And each adds an axis: the outer pmap and 62 siblings make 63; one more
// is too many.
func.func @sibling_axes_64() {
  spmd.pmap "i" size 1 {
    spmd.pmap "s1" size 1 { spmd.yield }
    spmd.pmap "s2" size 1 { spmd.yield }
    spmd.pmap "s3" size 1 { spmd.yield }
    spmd.pmap "s4" size 1 { spmd.yield }
    spmd.pmap "s5" size 1 { spmd.yield }
    spmd.pmap "s6" size 1 { spmd.yield }
    spmd.pmap "s7" size 1 { spmd.yield }
    spmd.pmap "s8" size 1 { spmd.yield }
    spmd.pmap "s9" size 1 { spmd.yield }
    spmd.pmap "s10" size 1 { spmd.yield }
    spmd.pmap "s11" size 1 { spmd.yield }
    spmd.pmap "s12" size 1 { spmd.yield }
    spmd.pmap "s13" size 1 { spmd.yield }
    spmd.pmap "s14" size 1 { spmd.yield }
    spmd.pmap "s15" size 1 { spmd.yield }
    spmd.pmap "s16" size 1 { spmd.yield }
    spmd.pmap "s17" size 1 { spmd.yield }
    spmd.pmap "s18" size 1 { spmd.yield }
    spmd.pmap "s19" size 1 { spmd.yield }
    spmd.pmap "s20" size 1 { spmd.yield }
    spmd.pmap "s21" size 1 { spmd.yield }
    spmd.pmap "s22" size 1 { spmd.yield }
    spmd.pmap "s23" size 1 { spmd.yield }
    spmd.pmap "s24" size 1 { spmd.yield }
    spmd.pmap "s25" size 1 { spmd.yield }
    spmd.pmap "s26" size 1 { spmd.yield }
    spmd.pmap "s27" size 1 { spmd.yield }
    spmd.pmap "s28" size 1 { spmd.yield }
    spmd.pmap "s29" size 1 { spmd.yield }
    spmd.pmap "s30" size 1 { spmd.yield }
    spmd.pmap "s31" size 1 { spmd.yield }
    spmd.pmap "s32" size 1 { spmd.yield }
    spmd.pmap "s33" size 1 { spmd.yield }
    spmd.pmap "s34" size 1 { spmd.yield }
    spmd.pmap "s35" size 1 { spmd.yield }
    spmd.pmap "s36" size 1 { spmd.yield }
    spmd.pmap "s37" size 1 { spmd.yield }
    spmd.pmap "s38" size 1 { spmd.yield }
    spmd.pmap "s39" size 1 { spmd.yield }
    spmd.pmap "s40" size 1 { spmd.yield }
    spmd.pmap "s41" size 1 { spmd.yield }
    spmd.pmap "s42" size 1 { spmd.yield }
    spmd.pmap "s43" size 1 { spmd.yield }
    spmd.pmap "s44" size 1 { spmd.yield }
    spmd.pmap "s45" size 1 { spmd.yield }
    spmd.pmap "s46" size 1 { spmd.yield }
    spmd.pmap "s47" size 1 { spmd.yield }
    spmd.pmap "s48" size 1 { spmd.yield }
    spmd.pmap "s49" size 1 { spmd.yield }
    spmd.pmap "s50" size 1 { spmd.yield }
    spmd.pmap "s51" size 1 { spmd.yield }
    spmd.pmap "s52" size 1 { spmd.yield }
    spmd.pmap "s53" size 1 { spmd.yield }
    spmd.pmap "s54" size 1 { spmd.yield }
    spmd.pmap "s55" size 1 { spmd.yield }
    spmd.pmap "s56" size 1 { spmd.yield }
    spmd.pmap "s57" size 1 { spmd.yield }
    spmd.pmap "s58" size 1 { spmd.yield }
    spmd.pmap "s59" size 1 { spmd.yield }
    spmd.pmap "s60" size 1 { spmd.yield }
    spmd.pmap "s61" size 1 { spmd.yield }
    spmd.pmap "s62" size 1 { spmd.yield }
    // expected-error @+1 {{'spmd.pmap' op gives its nest a 64th axis}}
    spmd.pmap "s63" size 1 { spmd.yield }
    spmd.yield
  }
  return
}

// -----

// Siblings may share an axis by its name, at one size.
func.func @sibling_reuses_name_with_another_size() {
  spmd.pmap "i" size 2 {
    spmd.pmap "j" size 2 {
      spmd.yield
    }
    // expected-error @+1 {{'spmd.pmap' op reuses axis name "j" with a different size in the same pmap nest; pcc does not compile that yet: rename one of the axes}}
    spmd.pmap "j" size 3 {
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

// The runtime's collectives keep the axes as bits of a 64-bit mask. Eight
// pmaps a line, 63 in all; the 64th is one too many.
func.func @nests_64_pmaps() {
  spmd.pmap "a0" size 1 { spmd.pmap "a1" size 1 { spmd.pmap "a2" size 1 { spmd.pmap "a3" size 1 { spmd.pmap "a4" size 1 { spmd.pmap "a5" size 1 { spmd.pmap "a6" size 1 { spmd.pmap "a7" size 1 {
  spmd.pmap "a8" size 1 { spmd.pmap "a9" size 1 { spmd.pmap "a10" size 1 { spmd.pmap "a11" size 1 { spmd.pmap "a12" size 1 { spmd.pmap "a13" size 1 { spmd.pmap "a14" size 1 { spmd.pmap "a15" size 1 {
  spmd.pmap "a16" size 1 { spmd.pmap "a17" size 1 { spmd.pmap "a18" size 1 { spmd.pmap "a19" size 1 { spmd.pmap "a20" size 1 { spmd.pmap "a21" size 1 { spmd.pmap "a22" size 1 { spmd.pmap "a23" size 1 {
  spmd.pmap "a24" size 1 { spmd.pmap "a25" size 1 { spmd.pmap "a26" size 1 { spmd.pmap "a27" size 1 { spmd.pmap "a28" size 1 { spmd.pmap "a29" size 1 { spmd.pmap "a30" size 1 { spmd.pmap "a31" size 1 {
  spmd.pmap "a32" size 1 { spmd.pmap "a33" size 1 { spmd.pmap "a34" size 1 { spmd.pmap "a35" size 1 { spmd.pmap "a36" size 1 { spmd.pmap "a37" size 1 { spmd.pmap "a38" size 1 { spmd.pmap "a39" size 1 {
  spmd.pmap "a40" size 1 { spmd.pmap "a41" size 1 { spmd.pmap "a42" size 1 { spmd.pmap "a43" size 1 { spmd.pmap "a44" size 1 { spmd.pmap "a45" size 1 { spmd.pmap "a46" size 1 { spmd.pmap "a47" size 1 {
  spmd.pmap "a48" size 1 { spmd.pmap "a49" size 1 { spmd.pmap "a50" size 1 { spmd.pmap "a51" size 1 { spmd.pmap "a52" size 1 { spmd.pmap "a53" size 1 { spmd.pmap "a54" size 1 { spmd.pmap "a55" size 1 {
  spmd.pmap "a56" size 1 { spmd.pmap "a57" size 1 { spmd.pmap "a58" size 1 { spmd.pmap "a59" size 1 { spmd.pmap "a60" size 1 { spmd.pmap "a61" size 1 { spmd.pmap "a62" size 1 {
  // expected-error @+1 {{'spmd.pmap' op gives its nest a 64th axis; pcc's grids have at most 63 (each nested pmap, and each inner pmap beside another with a name of its own, adds one)}}
  spmd.pmap "a63" size 1 { spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield } spmd.yield }
  return
}

// -----

// expected-error @+1 {{'spmd.grid_axes' (an array of axis names) and 'spmd.grid_sizes' (their sizes) go together on a device function}}
func.func private @half_grid(%device: i64) attributes {spmd.grid_axes = ["i"]} {
  return
}

// -----

// expected-error @+1 {{a device function takes its device index (i64) as its first argument}}
func.func private @no_device_index() attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  return
}

// -----

// expected-error @+1 {{'spmd.grid_axes' must hold distinct, non-empty axis names}}
func.func private @repeated_grid_axis(%device: i64) attributes {spmd.grid_axes = ["i", "i"], spmd.grid_sizes = array<i64: 2, 2>} {
  return
}

// -----

// expected-error @+1 {{'spmd.grid_axes' must hold distinct, non-empty axis names}}
func.func private @empty_grid_axis(%device: i64) attributes {spmd.grid_axes = [""], spmd.grid_sizes = array<i64: 2>} {
  return
}

// -----

// expected-error @+1 {{'spmd.grid_sizes' must hold at most 63 sizes of at least 1}}
func.func private @zero_grid(%device: i64) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 0>} {
  return
}

// -----

// expected-error @+1 {{unknown spmd attribute 'spmd.other'}}
func.func private @unknown_attribute() attributes {spmd.other} {
  return
}

// -----

// expected-error @+1 {{'spmd.written_as' belongs on a collective, naming the spmd op it was written as ("spmd.pmean")}}
func.func private @written_as_on_a_function() attributes {spmd.written_as = "spmd.pmean"} {
  return
}

// -----

func.func @written_as_not_a_name(%x: f32) -> f32 {
  // expected-error @+1 {{'spmd.written_as' belongs on a collective}}
  %s = spmd.psum %x over "i" {spmd.written_as = 1 : i32} : f32
  return %s : f32
}

// -----

func.func private @device(%device: i64, %buffer: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_count(%buffer: memref<4xf32>) {
  // expected-error @+1 {{'spmd.launch' op runs 3 devices, but the grid of @device has 4}}
  spmd.launch @device devices 3 () outs(%buffer) : () -> (memref<4xf32>)
  return
}

// -----

func.func private @device(%device: i64, %buffer: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_types(%buffer: memref<4xi32>) {
  // expected-error @+1 {{'spmd.launch' op passes buffers that do not match the signature '(i64, memref<4xf32>) -> ()' of @device}}
  spmd.launch @device devices 4 (%buffer) outs() : (memref<4xi32>) -> ()
  return
}

// -----

func.func private @device(%device: i64, %in: memref<4xf32>, %out: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_tensor_types(%in: tensor<4xf32>, %init: tensor<4xi32>) {
  // expected-error @+1 {{'spmd.launch' op passes buffers that do not match the signature '(i64, memref<4xf32>, memref<4xf32>) -> ()' of @device}}
  %r = spmd.launch @device devices 4 (%in) outs(%init) : (tensor<4xf32>) -> (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func private @device(%device: i64, %in: memref<4xf32>, %out: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_mixed_outputs(%in: tensor<4xf32>, %init: tensor<4xf32>, %buffer: memref<4xf32>) {
  // expected-error @+1 {{'spmd.launch' op takes outputs that are all tensors (before bufferization) or all buffers (after)}}
  %r = spmd.launch @device devices 4 (%in) outs(%init, %buffer) : (tensor<4xf32>) -> (tensor<4xf32>, memref<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @device(%device: i64, %in: memref<4xf32>, %out: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_uniform_flags(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{'spmd.launch' op has 2 uniform_outputs flags for 1 outputs}}
  spmd.launch @device devices 4 (%in) outs(%out) {uniform_outputs = array<i1: true, false>} : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

func.func private @device(%device: i64, %in: memref<4xf32>, %out: memref<4xf32>)
    attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch_returned_flags(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{'spmd.launch' op has 0 returned_outputs flags for 1 outputs}}
  spmd.launch @device devices 4 (%in) outs(%out) {returned_outputs = array<i1>} : (memref<4xf32>) -> (memref<4xf32>)
  return
}

// -----

func.func @launch_plain_function(%buffer: memref<4xf32>) {
  // expected-error @+1 {{'spmd.launch' op calls @launch_plain_function, which is not a device function}}
  spmd.launch @launch_plain_function devices 4 (%buffer) outs() : (memref<4xf32>) -> ()
  return
}

// -----

// The runtime takes a buffer as a pointer to its first element: a column of
// a matrix is not one run of elements.
func.func @runtime_call_strided(%m: memref<4x2xf32>, %out: memref<8xf32>) {
  %col = memref.subview %m[0, 1] [4, 1] [1, 1]
      : memref<4x2xf32> to memref<4xf32, strided<[2], offset: 1>>
  // expected-error @+1 {{'spmd.runtime_call' op passes the runtime a buffer that is not contiguous: 'memref<4xf32, strided<[2], offset: 1>>'}}
  spmd.runtime_call @gather(%col) outs(%out)
      : (memref<4xf32, strided<[2], offset: 1>>) -> memref<8xf32>
  return
}
