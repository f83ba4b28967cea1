// math.rsqrt, math.copysign and math.fpowi, which pcc-expand-math expands
// (libm and the JIT have no function for them as they are).
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %n: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) {
  %r = math.rsqrt %x : tensor<4xf32>
  %c = math.copysign %x, %y : tensor<4xf32>
  %p = math.fpowi %y, %n : tensor<4xf32>, tensor<4xi32>
  %xd = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %yd = arith.extf %y : tensor<4xf32> to tensor<4xf64>
  %cd = math.copysign %xd, %yd : tensor<4xf64>
  return %r, %c, %p, %cd : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>
}
