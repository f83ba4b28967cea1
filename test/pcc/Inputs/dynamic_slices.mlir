// Slices whose offsets, sizes and strides are given at run time, and ops
// on tensors whose sizes are known at run time only: what
// test/pcc/dynamic-checks.test runs, with valid values and bad ones.

// a[o : o + 2] = b
func.func @insert(%a: tensor<8xf32>, %b: tensor<2xf32>, %o: i64) -> tensor<8xf32> {
  %oi = arith.index_cast %o : i64 to index
  %r = tensor.insert_slice %b into %a[%oi] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// a[0 : 4 * s : s] = b
func.func @insert_strided(%a: tensor<8xf32>, %b: tensor<4xf32>, %s: i64) -> tensor<8xf32> {
  %si = arith.index_cast %s : i64 to index
  %r = tensor.insert_slice %b into %a[0] [4] [%si] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// a[o : o + n] = b[:n], with n given: b's run-time size must be n.
func.func @insert_sized(%a: tensor<8xf32>, %b: tensor<2xf32>, %o: i64, %n: i64) -> tensor<8xf32> {
  %oi = arith.index_cast %o : i64 to index
  %ni = arith.index_cast %n : i64 to index
  %bd = tensor.cast %b : tensor<2xf32> to tensor<?xf32>
  %r = tensor.insert_slice %bd into %a[%oi] [%ni] [1] : tensor<?xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// sum(a[o : o + n])
func.func @extract(%a: tensor<8xf32>, %o: i64, %n: i64) -> f32 {
  %oi = arith.index_cast %o : i64 to index
  %ni = arith.index_cast %n : i64 to index
  %s = tensor.extract_slice %a[%oi] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce ins(%s : tensor<?xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %e = tensor.extract %r[] : tensor<f32>
  return %e : f32
}

// a[0 : n][o : o + 2], reversed (a stride of -1 from o + 1): a slice of a
// tensor whose size is known only at run time.
func.func @reversed_pair(%a: tensor<8xf32>, %n: i64, %o: i64) -> tensor<2xf32> {
  %ni = arith.index_cast %n : i64 to index
  %oi = arith.index_cast %o : i64 to index
  %c1 = arith.constant 1 : index
  %last = arith.addi %oi, %c1 : index
  %head = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %minus = arith.constant -1 : index
  %r = tensor.extract_slice %head[%last] [2] [%minus] : tensor<?xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}

// On each of 4 devices: its row x, with x[o : o + 2] = psum(x)[0 : 2].
func.func @insert_in_pmap(%x: tensor<4x8xf32>, %o: i64) -> tensor<4x8xf32> {
  %r = spmd.pmap "i" (%row = %x : tensor<4x8xf32>) -> (tensor<4x8xf32>) {
    %s = spmd.psum %row over "i" : tensor<8xf32>
    %head = tensor.extract_slice %s[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %oi = arith.index_cast %o : i64 to index
    %w = tensor.insert_slice %head into %row[%oi] [2] [1] : tensor<2xf32> into tensor<8xf32>
    spmd.yield %w : tensor<8xf32>
  }
  return %r : tensor<4x8xf32>
}

// out[n + 2 j : n + 2 j + 2] = [j, j] for j in 0, 1, into zeros.
func.func @parallel_insert(%n: i64) -> tensor<8xf32> {
  %ni = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.forall (%j) in (2) shared_outs(%out = %init) -> (tensor<8xf32>) {
    %jf = arith.index_cast %j : index to i64
    %v = arith.sitofp %jf : i64 to f32
    %p = tensor.splat %v : tensor<2xf32>
    %two = arith.constant 2 : index
    %at = arith.muli %j, %two : index
    %off = arith.addi %ni, %at : index
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %p into %out[%off] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// concatenate(a[:n], b[:m]), into 10 elements.
func.func @concat(%a: tensor<8xf32>, %b: tensor<4xf32>, %n: i64, %m: i64) -> tensor<10xf32> {
  %ni = arith.index_cast %n : i64 to index
  %mi = arith.index_cast %m : i64 to index
  %x = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %y = tensor.extract_slice %b[0] [%mi] [1] : tensor<4xf32> to tensor<?xf32>
  %r = tensor.concat dim(0) %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<10xf32>
  return %r : tensor<10xf32>
}

// a[:n] + b[:m], with linalg.add and with arith.addf, into 2 elements.
func.func @add(%a: tensor<8xf32>, %b: tensor<4xf32>, %n: i64, %m: i64) -> (tensor<2xf32>, tensor<2xf32>) {
  %ni = arith.index_cast %n : i64 to index
  %mi = arith.index_cast %m : i64 to index
  %x = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %y = tensor.extract_slice %b[0] [%mi] [1] : tensor<4xf32> to tensor<?xf32>
  %e = tensor.empty() : tensor<2xf32>
  %s = linalg.add ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %t = arith.addf %x, %y : tensor<?xf32>
  %c = tensor.cast %t : tensor<?xf32> to tensor<2xf32>
  return %s, %c : tensor<2xf32>, tensor<2xf32>
}

// On each of 2 devices: psum(x[:, :k] @ y[:k]), x 4x8 and y 8x4 per device.
func.func @matmul_in_pmap(%x: tensor<2x4x8xf32>, %y: tensor<2x8x4xf32>, %k: i64, %l: i64) -> tensor<2x4x4xf32> {
  %r = spmd.pmap "i" (%a = %x : tensor<2x4x8xf32>, %b = %y : tensor<2x8x4xf32>) -> (tensor<2x4x4xf32>) {
    %ki = arith.index_cast %k : i64 to index
    %li = arith.index_cast %l : i64 to index
    %as = tensor.extract_slice %a[0, 0] [4, %ki] [1, 1] : tensor<4x8xf32> to tensor<4x?xf32>
    %bs = tensor.extract_slice %b[0, 0] [%li, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%as, %bs : tensor<4x?xf32>, tensor<?x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = spmd.psum %m over "i" : tensor<4x4xf32>
    spmd.yield %s : tensor<4x4xf32>
  }
  return %r : tensor<2x4x4xf32>
}

// The number of steps of range(0, 4, s).
func.func @loop(%s: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %si = arith.index_cast %s : i64 to index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %c4 step %si iter_args(%count = %zero) -> i64 {
    %next = arith.addi %count, %one : i64
    scf.yield %next : i64
  }
  return %r : i64
}

// The number of steps of range(0, 10, s), with a 32-bit induction variable.
func.func @loop_i32(%s: i32) -> i32 {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %s iter_args(%c = %zero) -> i32 : i32 {
    %n = arith.addi %c, %one : i32
    scf.yield %n : i32
  }
  return %r : i32
}

// The number of steps of range(lb, 2^63 - 1, 3): the step past the last
// value must not overflow.
func.func @loop_to_the_top(%lb: i64) -> i64 {
  %l = arith.index_cast %lb : i64 to index
  %u = arith.constant 9223372036854775807 : index
  %s = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = scf.for %i = %l to %u step %s iter_args(%c = %zero) -> i64 {
    %n = arith.addi %c, %one : i64
    scf.yield %n : i64
  }
  return %r : i64
}

// for (uint64 i = 0; i < 4; i += s): steps of an unsigned loop.
func.func @loop_unsigned(%s: i64) -> i64 {
  %lb = arith.constant 0 : i64
  %ub = arith.constant 4 : i64
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = scf.for unsigned %i = %lb to %ub step %s iter_args(%c = %zero) -> i64 : i64 {
    %n = arith.addi %c, %one : i64
    scf.yield %n : i64
  }
  return %r : i64
}

// out[i, j] = a[i - j + 3] for i, j < 4, a = a[:n] (needs n >= 7).
func.func @toeplitz(%a: tensor<8xf32>, %n: i64) -> tensor<4x4xf32> {
  %ni = arith.index_cast %n : i64 to index
  %x = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 - d1 + 3)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%p: f32, %z: f32):
      linalg.yield %p : f32
  } -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// out[j] = a[j mod 3] for j < 7, a = a[:n] (needs n >= 3).
func.func @cyclic(%a: tensor<8xf32>, %n: i64) -> tensor<7xf32> {
  %ni = arith.index_cast %n : i64 to index
  %x = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %e = tensor.empty() : tensor<7xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 mod 3)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<7xf32>) {
    ^bb0(%p: f32, %z: f32):
      linalg.yield %p : f32
  } -> tensor<7xf32>
  return %o : tensor<7xf32>
}

// out[j] = a[7 - j] for j < n, into the first n of 9 zeros.
func.func @reversed(%a: tensor<8xf32>, %n: i64) -> tensor<9xf32> {
  %ni = arith.index_cast %n : i64 to index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %head = tensor.extract_slice %z[0] [%ni] [1] : tensor<9xf32> to tensor<?xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%head : tensor<?xf32>) {
    ^bb0(%p: f32, %q: f32):
      linalg.yield %p : f32
  } -> tensor<?xf32>
  %r = tensor.insert_slice %o into %z[0] [%ni] [1] : tensor<?xf32> into tensor<9xf32>
  return %r : tensor<9xf32>
}

// np.pad(a, (lo, hi)), declared as 10 elements.
func.func @pad_to_ten(%a: tensor<8xf32>, %lo: i64, %hi: i64) -> tensor<10xf32> {
  %l = arith.index_cast %lo : i64 to index
  %h = arith.index_cast %hi : i64 to index
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[%l] high[%h] {
    ^bb0(%i: index):
      tensor.yield %z : f32
  } : tensor<8xf32> to tensor<10xf32>
  return %p : tensor<10xf32>
}

// a[:n] materialized in 4 elements.
func.func @materialize(%a: tensor<8xf32>, %n: i64) -> tensor<4xf32> {
  %ni = arith.index_cast %n : i64 to index
  %x = tensor.extract_slice %a[0] [%ni] [1] : tensor<8xf32> to tensor<?xf32>
  %d = tensor.empty() : tensor<4xf32>
  %dd = tensor.cast %d : tensor<4xf32> to tensor<?xf32>
  %r = bufferization.materialize_in_destination %x in %dd : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %c = tensor.cast %r : tensor<?xf32> to tensor<4xf32>
  return %c : tensor<4xf32>
}

// sum(ones(n)), in a buffer of n elements.
func.func @alloc(%n: i64) -> f32 {
  %ni = arith.index_cast %n : i64 to index
  %t = bufferization.alloc_tensor(%ni) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%t : tensor<?xf32>) -> tensor<?xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce ins(%f : tensor<?xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %e = tensor.extract %r[] : tensor<f32>
  return %e : f32
}
