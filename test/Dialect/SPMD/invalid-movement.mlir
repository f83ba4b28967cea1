// One case per diagnostic of the data-movement collectives (psum_scatter,
// ppermute, pshuffle, all_to_all, pbroadcast) and of `groups`.
// RUN: pcc-opt %s -split-input-file -verify-diagnostics

func.func @groups_with_two_axes(%v: f32) {
  spmd.pmap "i" size 2 {
    spmd.pmap "j" size 2 {
      // expected-error @+1 {{'spmd.psum' op takes 'groups' with a single axis name only, as JAX's axis_index_groups; got 2 axes}}
      %r = spmd.psum %v over ["i", "j"] groups [[0, 1]] : f32
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

func.func @no_groups(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum' op needs at least one group in 'groups'}}
    %r = spmd.psum %v over "i" groups [] : f32
    spmd.yield
  }
  return
}

// -----

func.func @empty_group(%v: f32) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.pmax' op group #1 is empty; every group needs at least one position: remove the empty list}}
    %r = spmd.pmax %v over "i" groups [[0, 1], []] : f32
    spmd.yield
  }
  return
}

// -----

func.func @unequal_groups(%v: tensor<2xf32>) {
  spmd.pmap "i" size 3 {
    // expected-error @+1 {{'spmd.all_gather' op needs groups of equal size, but group #1 has 1 members and group #0 has 2; only psum, pmean, pmax and pmin take groups of different sizes}}
    %r = spmd.all_gather %v over "i" groups [[0, 1], [2]] : tensor<2xf32> -> tensor<2x2xf32>
    spmd.yield
  }
  return
}

// -----

func.func @group_out_of_range(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.pmin' op group #1 names position 4, outside axis "i" of size 4 (positions are 0 to 3)}}
    %r = spmd.pmin %v over "i" groups [[0, 1], [2, 4]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @group_repeats(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum' op position 1 is in group #0 and again in group #1; the groups must hold every position along the axis exactly once}}
    %r = spmd.psum %v over "i" groups [[0, 1], [1, 2, 3]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @group_misses(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.pmean' op position 3 of axis "i" is in no group; the groups must hold every position along the axis exactly once}}
    %r = spmd.pmean %v over "i" groups [[0, 1], [2]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @scatter_dim_out_of_range(%v: tensor<4x3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum_scatter' op 'dim 2' is out of range for operand type 'tensor<4x3xf32>'; expected 0 to 1}}
    %r = spmd.psum_scatter %v over "i" dim 2 : tensor<4x3xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @scatter_size_not_axis_size(%v: tensor<3x4xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum_scatter' op splits dimension 0 of 'tensor<3x4xf32>' (size 3) into one part per device, so its size must equal the number of devices, 4; with 'tiled' it need only be divisible by it}}
    %r = spmd.psum_scatter %v over "i" : tensor<3x4xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @scatter_not_divisible(%v: tensor<6xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum_scatter' op splits dimension 0 of 'tensor<6xf32>' (size 6) into 4 equal blocks, but 6 is not divisible by 4}}
    %r = spmd.psum_scatter %v over "i" tiled : tensor<6xf32> -> tensor<1xf32>
    spmd.yield
  }
  return
}

// -----

func.func @scatter_result_type(%v: tensor<8xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum_scatter' op result type 'tensor<4xf32>' does not follow from the operand: 4 parts of dimension 0, tiled, give 'tensor<2xf32>'}}
    %r = spmd.psum_scatter %v over "i" tiled : tensor<8xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @scatter_integer_only_reducible(%v: tensor<4xi1>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.psum_scatter' op operand #0 must be statically shaped tensor of i8, i16, i32, i64, f16, bf16, f32 or f64 values}}
    %r = spmd.psum_scatter %v over "i" : tensor<4xi1> -> tensor<i1>
    spmd.yield
  }
  return
}

// -----

func.func @ppermute_pair(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.ppermute' op 'perm' entry #1 has 3 positions; each entry is a [source, destination] pair}}
    %r = spmd.ppermute %v over "i" perm [[0, 1], [1, 2, 3]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @ppermute_repeated_source(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.ppermute' op source 0 appears twice in 'perm'; each device sends to at most one and receives from at most one}}
    %r = spmd.ppermute %v over "i" perm [[0, 1], [0, 2]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @ppermute_repeated_destination(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.ppermute' op destination 2 appears twice in 'perm'}}
    %r = spmd.ppermute %v over "i" perm [[0, 2], [1, 2]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @ppermute_out_of_range(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.ppermute' op destination 4 is out of range: the named axes have 4 devices, at positions 0 to 3}}
    %r = spmd.ppermute %v over "i" perm [[3, 4]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @pshuffle_length(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.pshuffle' op 'perm' has 3 entries, but the named axes have 4 devices; it must be a permutation of 0 to 3 (device k receives perm[k]'s value)}}
    %r = spmd.pshuffle %v over "i" perm [0, 1, 2] : f32
    spmd.yield
  }
  return
}

// -----

func.func @pshuffle_not_permutation(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.pshuffle' op source 1 appears twice in 'perm'; 'perm' must be a permutation of 0 to 3 (use 'spmd.ppermute' for a partial one)}}
    %r = spmd.pshuffle %v over "i" perm [0, 1, 1, 2] : f32
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_split(%v: tensor<4x3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op 'split 2' is out of range for operand type 'tensor<4x3xf32>'; expected 0 to 1}}
    %r = spmd.all_to_all %v over "i" split 2 concat 0 : tensor<4x3xf32> -> tensor<4x3xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_concat(%v: tensor<4x3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op 'concat 3' is out of range; expected 0 to 1 (where the new dimension goes in the result)}}
    %r = spmd.all_to_all %v over "i" split 0 concat 3 : tensor<4x3xf32> -> tensor<4x3xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_result(%v: tensor<8x3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op result type 'tensor<8x3xf32>' does not follow from the operand: 4 chunks split along dimension 0 and concatenated along 1 give 'tensor<2x12xf32>'}}
    %r = spmd.all_to_all %v over "i" split 0 concat 1 tiled : tensor<8x3xf32> -> tensor<8x3xf32>
    spmd.yield
  }
  return
}

// -----

func.func @pbroadcast_from(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.pbroadcast' op 'from 4' is out of range: the named axes have 4 devices, at positions 0 to 3}}
    %r = spmd.pbroadcast %v over "i" from 4 : f32
    spmd.yield
  }
  return
}

// -----

// A grouped psum's result differs between groups: a loop bound on it makes
// the collective inside depend on the device.
func.func @grouped_result_not_uniform(%v: i64) {
  spmd.pmap "i" size 4 {
    %n = spmd.psum %v over "i" groups [[0, 1], [2, 3]] : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bound = arith.index_cast %n : i64 to index
    // expected-note @+1 {{the device-dependent control flow is here}}
    scf.for %k = %c0 to %bound step %c1 {
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i": the enclosing 'scf.for' takes its loop bounds from a value that differs between them}}
      %s = spmd.psum %v over "i" : i64
    }
    spmd.yield
  }
  return
}

// -----

// A pbroadcast's source comes from a device-independent attribute: its
// result is the same on every device, and may bound a loop of collectives.
func.func @pbroadcast_result_uniform(%v: i64) {
  spmd.pmap "i" size 4 {
    %k = spmd.axis_index "i" : index
    %kv = arith.index_cast %k : index to i64
    %n = spmd.pbroadcast %kv over "i" from 2 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bound = arith.index_cast %n : i64 to index
    scf.for %j = %c0 to %bound step %c1 {
      %s = spmd.psum %v over "i" : i64
    }
    spmd.yield
  }
  return
}

// -----

// A ppermute's result differs between devices (each receives from another).
func.func @ppermute_result_not_uniform(%v: i64) {
  spmd.pmap "i" size 4 {
    %n = spmd.ppermute %v over "i" perm [[0, 1], [1, 2], [2, 3], [3, 0]] : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bound = arith.index_cast %n : i64 to index
    // expected-note @+1 {{the device-dependent control flow is here}}
    scf.for %k = %c0 to %bound step %c1 {
      // expected-error @+1 {{'spmd.psum' op runs on only some devices of axis "i": the enclosing 'scf.for' takes its loop bounds from a value that differs between them}}
      %s = spmd.psum %v over "i" : i64
    }
    spmd.yield
  }
  return
}

// -----

func.func @ppermute_source_out_of_range(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.ppermute' op source 4 is out of range: the named axes have 4 devices, at positions 0 to 3}}
    %r = spmd.ppermute %v over "i" perm [[4, 0]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @pshuffle_entry_out_of_range(%v: f32) {
  spmd.pmap "i" size 3 {
    // expected-error @+1 {{'spmd.pshuffle' op source 7 is out of range: the named axes have 3 devices, at positions 0 to 2}}
    %r = spmd.pshuffle %v over "i" perm [1, 7, 0] : f32
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_split_size(%v: tensor<3x2xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op splits dimension 0 of 'tensor<3x2xf32>' (size 3) into one part per device, so its size must equal the number of devices, 4}}
    %r = spmd.all_to_all %v over "i" split 0 concat 0 : tensor<3x2xf32> -> tensor<3x2xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_not_divisible(%v: tensor<6xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op splits dimension 0 of 'tensor<6xf32>' (size 6) into 4 equal blocks, but 6 is not divisible by 4}}
    %r = spmd.all_to_all %v over "i" split 0 concat 0 tiled : tensor<6xf32> -> tensor<6xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_tiled_concat(%v: tensor<4x3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'spmd.all_to_all' op 'concat 2' is out of range; expected 0 to 1}}
    %r = spmd.all_to_all %v over "i" split 0 concat 2 tiled : tensor<4x3xf32> -> tensor<4x3xf32>
    spmd.yield
  }
  return
}

// -----

func.func @psum_scatter_unequal_groups(%v: tensor<4xf32>) {
  spmd.pmap "i" size 3 {
    // expected-error @+1 {{'spmd.psum_scatter' op needs groups of equal size, but group #1 has 1 members and group #0 has 2; only psum, pmean, pmax and pmin take groups of different sizes}}
    %r = spmd.psum_scatter %v over "i" groups [[0, 1], [2]] tiled : tensor<4xf32> -> tensor<2xf32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_unequal_groups(%v: tensor<4xf32>) {
  spmd.pmap "i" size 3 {
    // expected-error @+1 {{'spmd.all_to_all' op needs groups of equal size, but group #1 has 2 members and group #0 has 1}}
    %r = spmd.all_to_all %v over "i" groups [[2], [0, 1]] split 0 concat 0 tiled : tensor<4xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}

// -----

func.func @psum_scatter_scalar_tensor(%v: tensor<f32>) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.psum_scatter' op splits a dimension of its operand into one part per device, but 'tensor<f32>' has no dimensions; give the operand a dimension to split}}
    %r = spmd.psum_scatter %v over "i" : tensor<f32> -> tensor<f32>
    spmd.yield
  }
  return
}

// -----

func.func @all_to_all_scalar_tensor(%v: tensor<f32>) {
  spmd.pmap "i" size 2 {
    // expected-error @+1 {{'spmd.all_to_all' op splits a dimension of its operand into one part per device, but 'tensor<f32>' has no dimensions}}
    %r = spmd.all_to_all %v over "i" split 0 concat 0 : tensor<f32> -> tensor<f32>
    spmd.yield
  }
  return
}

// -----

func.func @groups_on_ppermute(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is taken by psum, pmean, pmax, pmin, all_gather, psum_scatter and all_to_all only (as JAX's axis_index_groups); ppermute, pshuffle, pbroadcast and axis_index address positions along the whole axis: leave 'groups' out (a ppermute within groups lists the pairs of every group in its 'perm')}}
    %r = spmd.ppermute %v over "i" groups [[0, 1], [2, 3]] perm [[0, 1]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @groups_on_pbroadcast(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is taken by psum, pmean, pmax, pmin, all_gather, psum_scatter and all_to_all only}}
    %r = spmd.pbroadcast %v over "i" groups [[0, 1], [2, 3]] from 0 : f32
    spmd.yield
  }
  return
}

// -----

func.func @groups_on_axis_index() {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{ppermute, pshuffle, pbroadcast and axis_index address positions along the whole axis}}
    %k = spmd.axis_index "i" groups [[0, 1], [2, 3]] : index
    spmd.yield
  }
  return
}

// -----

// A 'groups' after the other attributes is placed, not only rejected.
func.func @groups_after_perm(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is taken by psum, pmean, pmax, pmin, all_gather, psum_scatter and all_to_all only}}
    %r = spmd.ppermute %v over "i" perm [[0, 1]] groups [[0, 1], [2, 3]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @groups_after_from(%v: f32) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is taken by psum, pmean, pmax, pmin, all_gather, psum_scatter and all_to_all only}}
    %r = spmd.pbroadcast %v over "i" from 0 groups [[0, 1], [2, 3]] : f32
    spmd.yield
  }
  return
}

// -----

func.func @groups_after_tiled(%v: tensor<3xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is written right after the axis name, before every other attribute: over "i" groups [[0, 1], [2, 3]] ...}}
    %r = spmd.all_gather %v over "i" tiled groups [[0, 1], [2, 3]] : tensor<3xf32> -> tensor<6xf32>
    spmd.yield
  }
  return
}

// -----

func.func @groups_after_dim(%v: tensor<4xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is written right after the axis name}}
    %r = spmd.psum_scatter %v over "i" dim 0 groups [[0, 1], [2, 3]] : tensor<4xf32> -> tensor<2xf32>
    spmd.yield
  }
  return
}

// -----

func.func @groups_after_concat(%v: tensor<4xf32>) {
  spmd.pmap "i" size 4 {
    // expected-error @+1 {{'groups' is written right after the axis name}}
    %r = spmd.all_to_all %v over "i" split 0 concat 0 tiled groups [[0, 1], [2, 3]] : tensor<4xf32> -> tensor<4xf32>
    spmd.yield
  }
  return
}
