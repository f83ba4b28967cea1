// Float-to-integer casts of every kind of value: in range, past either end
// of the integer type, infinite and NaN, on 67 elements (vector code and its
// scalar remainder alike).
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<67xf32>, %h: tensor<67xf16>)
    -> (tensor<67xi1>, tensor<67xi8>, tensor<67xi8>, tensor<67xi16>,
        tensor<67xi32>, tensor<67xi32>, tensor<67xi64>, tensor<67xi64>,
        tensor<67xi32>, tensor<67xi8>) {
  %e1 = tensor.empty() : tensor<67xi1>
  %e8 = tensor.empty() : tensor<67xi8>
  %e16 = tensor.empty() : tensor<67xi16>
  %e32 = tensor.empty() : tensor<67xi32>
  %e64 = tensor.empty() : tensor<67xi64>
  %r:8 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel"]}
      ins(%a : tensor<67xf32>)
      outs(%e1, %e8, %e8, %e16, %e32, %e32, %e64, %e64
           : tensor<67xi1>, tensor<67xi8>, tensor<67xi8>, tensor<67xi16>,
             tensor<67xi32>, tensor<67xi32>, tensor<67xi64>, tensor<67xi64>) {
  ^bb0(%x: f32, %o1: i1, %o2: i8, %o3: i8, %o4: i16, %o5: i32, %o6: i32, %o7: i64, %o8: i64):
    %s1 = arith.fptosi %x : f32 to i1
    %s8 = arith.fptosi %x : f32 to i8
    %u8 = arith.fptoui %x : f32 to i8
    %u16 = arith.fptoui %x : f32 to i16
    %s32 = arith.fptosi %x : f32 to i32
    %u32 = arith.fptoui %x : f32 to i32
    %s64 = arith.fptosi %x : f32 to i64
    %u64 = arith.fptoui %x : f32 to i64
    linalg.yield %s1, %s8, %u8, %u16, %s32, %u32, %s64, %u64
        : i1, i8, i8, i16, i32, i32, i64, i64
  } -> (tensor<67xi1>, tensor<67xi8>, tensor<67xi8>, tensor<67xi16>,
        tensor<67xi32>, tensor<67xi32>, tensor<67xi64>, tensor<67xi64>)
  // From f16, whose largest finite value every i32 holds, and elementwise
  // on tensors.
  %hs32 = arith.fptosi %h : tensor<67xf16> to tensor<67xi32>
  %hu8 = arith.fptoui %h : tensor<67xf16> to tensor<67xi8>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %hs32, %hu8
      : tensor<67xi1>, tensor<67xi8>, tensor<67xi8>, tensor<67xi16>,
        tensor<67xi32>, tensor<67xi32>, tensor<67xi64>, tensor<67xi64>,
        tensor<67xi32>, tensor<67xi8>
}
