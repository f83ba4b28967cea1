// Programs may run only their own code: no external functions, no LLVM
// dialect (so no inline assembly, no addresses of external globals).
// RUN: pcc-opt %s -split-input-file -verify-diagnostics --pcc-verify-closed

// expected-error @+1 {{function @system is declared but not defined; pcc runs only code that the program defines, so give it a body}}
func.func private @system(i64) -> i32

func.func @main() {
  %c = arith.constant 0 : i64
  %r = func.call @system(%c) : (i64) -> i32
  return
}

// -----

func.func @main() {
  %c = arith.constant 0 : i64
  // expected-error @+1 {{'llvm.inline_asm' is not allowed in pcc programs: they may use the func, arith, math, tensor, linalg, scf, bufferization and spmd dialects}}
  %r = llvm.inline_asm "syscall", "=r,r" %c : (i64) -> i64
  return
}

// -----

// expected-error @+1 {{'llvm.mlir.global' is not allowed in pcc programs}}
llvm.mlir.global external @environ() : !llvm.ptr

// -----

// expected-error @+1 {{'llvm.func' is not allowed in pcc programs}}
llvm.func @dlopen(!llvm.ptr, i32) -> !llvm.ptr

// -----

// expected-error @+1 {{the name @pcc_launch is reserved for pcc (names starting with 'pcc_', '_pcc_' or '_mlir_'); rename it}}
func.func @pcc_launch(%n: i64) {
  return
}

// -----

// expected-error @+1 {{the attribute 'spmd.grid_axes' is created by pcc; write an 'spmd.pmap' instead}}
func.func private @device(%device: i64) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 2>} {
  return
}

// -----

// The ops pcc's lowering creates are not for programs: a runtime call could
// reach any runtime function with any arguments.
func.func @runtime_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %d = arith.constant 0 : i64
  // expected-error @+1 {{'spmd.runtime_call' is created by pcc; write an 'spmd.pmap' and its collectives instead}}
  %r = spmd.runtime_call @pcc_collective(%d, %x) outs(%x)
      : (i64, tensor<4xf32>) -> tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Nor are launches of device functions (each error is reported).
// expected-error @+1 {{the attribute 'spmd.grid_axes' is created by pcc; write an 'spmd.pmap' instead}}
func.func @device(%device: i64, %x: memref<4xf32>) attributes {spmd.grid_axes = ["i"], spmd.grid_sizes = array<i64: 4>} {
  return
}

func.func @launch(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'spmd.launch' is created by pcc; write an 'spmd.pmap' and its collectives instead}}
  %r = spmd.launch @device devices 4 () outs(%x) : () -> (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{the type 'tensor<100000000x100000000x100000000xf32>' is larger than any memory (more than 2^48 bytes)}}
func.func @huge(%a: tensor<100000000x100000000x100000000xf32>) {
  return
}

// -----

func.func @huge_result() {
  // expected-error @+1 {{the type 'tensor<4611686018427387904x4xf32>' is larger than any memory}}
  %e = tensor.empty() : tensor<4611686018427387904x4xf32>
  return
}

// -----

// Index elements are sized like i64 (they used to crash the size check).
func.func @index_elements() -> tensor<2xi64> {
  %c = arith.constant dense<[5, 6]> : tensor<2xindex>
  %r = arith.index_cast %c : tensor<2xindex> to tensor<2xi64>
  return %r : tensor<2xi64>
}

// -----

// Element types pcc does not lower are located errors, wherever they appear.
func.func @complex_elements() {
  // expected-error @+1 {{the type 'tensor<2xcomplex<f32>>' has elements of type 'complex<f32>', which pcc does not support (integers, index, f16, bf16, f32 and f64 only)}}
  %e = tensor.empty() : tensor<2xcomplex<f32>>
  return
}

// -----

// Integers in tensors and buffers take 1, 8, 16, 32, 64 or 128 bits: MLIR
// gave an i65 12 bytes and LLVM 16, so its buffers were too small. Scalars
// of any width are fine.
func.func @odd_width_elements(%x: tensor<81xi64>) -> i65 {
  %c0 = arith.constant 0 : index
  %s = tensor.extract %x[%c0] : tensor<81xi64>
  %w = arith.extsi %s : i64 to i65
  // expected-error @+1 {{the type 'tensor<81xi65>' has elements of type 'i65', which pcc does not keep in memory (integers of 1, 8, 16, 32, 64 and 128 bits only); extend the values to a wider one, or compute on scalars}}
  %t = arith.extsi %x : tensor<81xi64> to tensor<81xi65>
  return %w : i65
}

// -----

func.func @odd_width_buffer(%x: memref<4xi24>) {
  // expected-error @-1 {{the type 'memref<4xi24>' has elements of type 'i24', which pcc does not keep in memory}}
  return
}

// -----

// Rounding modes other than LLVM's were ignored.
func.func @rounding_mode(%x: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xbf16>) {
  %a = arith.truncf %x to_nearest_even : tensor<3xf32> to tensor<3xf16>
  // expected-error @+1 {{'arith.truncf' rounding toward_zero is not supported by pcc; it rounds to nearest even only (omit the rounding mode)}}
  %b = arith.truncf %x toward_zero : tensor<3xf32> to tensor<3xbf16>
  return %a, %b : tensor<3xf16>, tensor<3xbf16>
}

// -----

func.func @vector_elements() {
  // expected-error @+1 {{the type 'tensor<2xvector<4xf32>>' has elements of type 'vector<4xf32>', which pcc does not support}}
  %e = tensor.empty() : tensor<2xvector<4xf32>>
  return
}

// -----

// expected-error @+1 {{the type 'tensor<3xcomplex<f64>>' has elements of type 'complex<f64>'}}
func.func @complex_argument(%x: tensor<3xcomplex<f64>>) {
  return
}

// -----

// So are scalar types it does not lower, in functions' arguments and in the
// types of functions as values.
// expected-error @+1 {{values of type 'tuple<i32, f32>' are not supported by pcc (tensors, buffers and scalars of integers, index, f16, bf16, f32 and f64, and functions of them)}}
func.func @tuple_argument(%t: tuple<i32, f32>) {
  return
}

// -----

// expected-error @+1 {{values of type 'tuple<i32>'}}
func.func private @takes_tuple(%t: tuple<i32>) {
  return
}
func.func @function_value() {
  // expected-error @+1 {{values of type '(tuple<i32>) -> ()' are not supported by pcc}}
  %f = func.constant @takes_tuple : (tuple<i32>) -> ()
  return
}

// -----

// A function as a value, of supported types, is fine.
func.func @negate(%x: f32) -> f32 {
  %y = arith.negf %x : f32
  return %y : f32
}
func.func @call_indirect(%x: f32) -> f32 {
  %f = func.constant @negate : (f32) -> f32
  %y = func.call_indirect %f(%x) : (f32) -> f32
  return %y : f32
}

// Ops of the allowed dialects that pcc cannot compile yet are rejected up
// front, by name, with what to write instead.
func.func @gather(%src: tensor<3xf32>, %idx: tensor<2x1xindex>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'tensor.gather' is not supported by pcc yet; index with tensor.extract in a linalg.generic}}
  %g = tensor.gather %src[%idx] gather_dims([0]) unique : (tensor<3xf32>, tensor<2x1xindex>) -> tensor<2x1xf32>
  return %g : tensor<2x1xf32>
}

// -----

func.func @scatter(%src: tensor<2x1xf32>, %dst: tensor<3xf32>, %idx: tensor<2x1xindex>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.scatter' is not supported by pcc yet; write with tensor.insert in an scf.for}}
  %s = tensor.scatter %src into %dst[%idx] scatter_dims([0]) unique : (tensor<2x1xf32>, tensor<3xf32>, tensor<2x1xindex>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

func.func @bitcast(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tensor.bitcast' is not supported by pcc yet; use arith.bitcast on the elements (linalg.map)}}
  %b = tensor.bitcast %x : tensor<4xf32> to tensor<4xi32>
  return %b : tensor<4xi32>
}

// -----

// Floats that have no lowering to LLVM (the 8-bit ones, tf32) or to a GPU
// (f80, f128), in tensors and as scalars, where the program first makes
// them rather than where a conversion to LLVM fails.
func.func @f8_elements(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the type 'tensor<4xf8E4M3FN>' has elements of type 'f8E4M3FN', which pcc does not support (integers, index, f16, bf16, f32 and f64 only)}}
  %e = tensor.empty() : tensor<4xf8E4M3FN>
  return %x : tensor<4xf32>
}

// -----

func.func @f8_scalar() -> f32 {
  // expected-error @+1 {{values of type 'f8E5M2' are not supported by pcc}}
  %b = arith.constant 2.0 : f8E5M2
  %r = arith.extf %b : f8E5M2 to f32
  return %r : f32
}

// -----

func.func @tf32_scalar(%a: f32) -> f32 {
  // expected-error @+1 {{values of type 'tf32' are not supported by pcc}}
  %b = arith.truncf %a : f32 to tf32
  %r = arith.extf %b : tf32 to f32
  return %r : f32
}

// -----

// expected-error @+1 {{the type 'tensor<2xf80>' has elements of type 'f80'}}
func.func @f80_argument(%x: tensor<2xf80>) {
  return
}

// -----

func.func @f128_in_a_body(%a: f64) -> f64 {
  // expected-error @+1 {{values of type 'f128' are not supported by pcc}}
  %b = arith.extf %a : f64 to f128
  %r = arith.truncf %b : f128 to f64
  return %r : f64
}

// -----

// A to_buffer into a buffer of another static layout than its tensor's
// would need an allocation of that layout, which does not lower; its own
// layout, spelled out or not, and any layout are fine.
func.func @layouts(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.to_buffer' into a buffer of layout strided<[1], offset: 3> is not supported by pcc; ask for the tensor's own layout (no layout attribute) or for any layout (all strides and the offset '?')}}
  %a = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32, strided<[1], offset: 3>>
  %b = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32, strided<[1]>>
  %c = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>
  %d = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  return
}

// -----

// pcc frees buffers itself: explicit deallocation is rejected up front.
func.func @dealloc_tensor(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bufferization.dealloc_tensor' is not supported by pcc yet; pcc frees every buffer once nothing reads it: remove the op}}
  bufferization.dealloc_tensor %x : tensor<4xf32>
  return
}

// -----

func.func @dealloc(%x: tensor<4xf32>) {
  %m = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %true = arith.constant true
  // expected-error @+1 {{'bufferization.dealloc' is not supported by pcc yet; pcc frees every buffer once nothing reads it: remove the op}}
  bufferization.dealloc (%m : memref<4xf32>) if (%true)
  return
}

// -----

// Materializing into a tensor from outside a pmap: every device would write
// the one buffer.
func.func @main(%a: tensor<4x3xf32>, %w: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    // expected-error @+1 {{'bufferization.materialize_in_destination' writes into a tensor defined outside the enclosing 'spmd.pmap', which all its devices share; materialize into a tensor of the body instead (a tensor.empty, say)}}
    %m = bufferization.materialize_in_destination %x in %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    spmd.yield %m : tensor<3xf32>
  }
  return %r : tensor<4x3xf32>
}

// -----

// Into a tensor of the body, or outside any pmap: fine.
func.func @main(%a: tensor<4x3xf32>, %w: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %r = spmd.pmap "i" (%x = %a : tensor<4x3xf32>) -> (tensor<4x3xf32>) {
    %e = tensor.empty() : tensor<3xf32>
    %m = bufferization.materialize_in_destination %x in %e : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    spmd.yield %m : tensor<3xf32>
  }
  %c = arith.constant dense<1.0> : tensor<3xf32>
  %n = bufferization.materialize_in_destination %c in %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r, %n : tensor<4x3xf32>, tensor<3xf32>
}

// -----

func.func @main(%a: tensor<8xf32>, %n: index, %m: index) -> tensor<?x?x2xf32> {
  %d = tensor.cast %a : tensor<8xf32> to tensor<?xf32>
  // expected-error @+1 {{'tensor.expand_shape' that splits one axis into several whose sizes are known only at run time is not supported by pcc yet; give all but one of them static sizes}}
  %e = tensor.expand_shape %d [[0, 1, 2]] output_shape [%n, %m, 2] : tensor<?xf32> into tensor<?x?x2xf32>
  return %e : tensor<?x?x2xf32>
}

// -----

// Softmax and the Winograd transforms decompose on floats only, and the
// transforms with static shapes only.
func.func @integer_softmax(%x: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %e = tensor.empty() : tensor<2x4xi32>
  // expected-error @+1 {{'linalg.softmax' on integers is not supported by pcc; convert the operand to a float type first (arith.sitofp)}}
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x4xi32>) outs(%e : tensor<2x4xi32>) -> tensor<2x4xi32>
  return %s : tensor<2x4xi32>
}

// -----

func.func @integer_winograd(%f: tensor<2x3x3x5xi32>) -> tensor<6x6x5x2xi32> {
  %e = tensor.empty() : tensor<6x6x5x2xi32>
  // expected-error @+1 {{'linalg.winograd_filter_transform' on integers is not supported by pcc}}
  %r = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xi32>) outs(%e : tensor<6x6x5x2xi32>) -> tensor<6x6x5x2xi32>
  return %r : tensor<6x6x5x2xi32>
}

// -----

func.func @dynamic_winograd(%x: tensor<?x14x14x5xf32>, %o: tensor<6x6x3x3x?x5xf32>) -> tensor<6x6x3x3x?x5xf32> {
  // expected-error @+1 {{'linalg.winograd_input_transform' with dynamic shapes is not supported by pcc yet; give it statically shaped operands}}
  %r = linalg.winograd_input_transform fmr(F_4_3) ins(%x : tensor<?x14x14x5xf32>) outs(%o : tensor<6x6x3x3x?x5xf32>) -> tensor<6x6x3x3x?x5xf32>
  return %r : tensor<6x6x3x3x?x5xf32>
}

// -----

// Vectors are not lowered either, as values of their own: an operation on
// one would reach LLVM translation (math) or run unchecked (division).
func.func @vector_value() -> i32 {
  // expected-error @+1 {{values of type 'vector<4xi32>' are not supported by pcc (tensors, buffers and scalars of integers, index, f16, bf16, f32 and f64, and functions of them)}}
  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// expected-error @+1 {{values of type 'vector<4xf32>' are not supported by pcc}}
func.func @vector_argument(%a: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{values of type 'vector<4xf32>' are not supported by pcc}}
  %s = math.erf %a : vector<4xf32>
  return %s : vector<4xf32>
}
