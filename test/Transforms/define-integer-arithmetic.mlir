// RUN: pcc-opt %s --pcc-define-integer-arithmetic | FileCheck %s

// A signed division: by 1 instead when y is 0 or x, y are INT_MIN, -1; -1
// when y is 0.
// CHECK-LABEL: func @signed
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK: %[[IS_ZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]]
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[X_MIN:.*]] = arith.cmpi eq, %[[X]], %[[MIN]]
// CHECK: %[[Y_ALL:.*]] = arith.cmpi eq, %[[Y]], %[[ALL]]
// CHECK: %[[OVER:.*]] = arith.andi %[[X_MIN]], %[[Y_ALL]]
// CHECK: %[[BAD:.*]] = arith.ori %[[IS_ZERO]], %[[OVER]]
// CHECK: %[[D:.*]] = arith.select %[[BAD]], %[[ONE]], %[[Y]]
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[D]]
// CHECK: %[[R:.*]] = arith.select %[[IS_ZERO]], %[[ALL]], %[[Q]]
// CHECK: return %[[R]]
func.func @signed(%x: i32, %y: i32) -> i32 {
  %q = arith.divsi %x, %y : i32
  return %q : i32
}

// A remainder is x when y is 0; unsigned divisions need no overflow check.
// CHECK-LABEL: func @unsigned_remainder
// CHECK-SAME: (%[[X:.*]]: index, %[[Y:.*]]: index)
// CHECK: %[[IS_ZERO:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : index
// CHECK-NOT: arith.andi
// CHECK: %[[D:.*]] = arith.select %[[IS_ZERO]], %{{.*}}, %[[Y]]
// CHECK: %[[R:.*]] = arith.remui %[[X]], %[[D]]
// CHECK: arith.select %[[IS_ZERO]], %[[X]], %[[R]]
func.func @unsigned_remainder(%x: index, %y: index) -> index {
  %r = arith.remui %x, %y : index
  return %r : index
}

// Tensors (before elementwise ops become linalg) get splat constants.
// floordivsi becomes the quotient toward zero, less one where the
// remainder is not 0 and its sign is not the divisor's.
// CHECK-LABEL: func @tensor
// CHECK: arith.constant dense<0> : tensor<4xi8>
// CHECK: %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %arg1 : tensor<4xi1>, tensor<4xi8>
// CHECK: %[[Q:.*]] = arith.divsi %arg0, %[[D]] : tensor<4xi8>
// CHECK: %[[R:.*]] = arith.remsi %arg0, %[[D]] : tensor<4xi8>
// CHECK: %[[INEXACT:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : tensor<4xi8>
// CHECK: %[[X:.*]] = arith.xori %[[R]], %[[D]] : tensor<4xi8>
// CHECK: %[[DIFFER:.*]] = arith.cmpi slt, %[[X]], %{{.*}} : tensor<4xi8>
// CHECK: %[[DOWN:.*]] = arith.andi %[[INEXACT]], %[[DIFFER]] : tensor<4xi1>
// CHECK: %[[BELOW:.*]] = arith.subi %[[Q]], %{{.*}} : tensor<4xi8>
// CHECK: arith.select %[[DOWN]], %[[BELOW]], %[[Q]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NOT: floordivsi
func.func @tensor(%x: tensor<4xi8>, %y: tensor<4xi8>) -> tensor<4xi8> {
  %q = arith.floordivsi %x, %y : tensor<4xi8>
  return %q : tensor<4xi8>
}

// Constant divisors that cannot fault are left alone; 0 and, for signed
// divisions, -1 are not.
// CHECK-LABEL: func @constants
// CHECK: arith.divsi %{{.*}}, %c3_i32 : i32
// CHECK: arith.divui %{{.*}}, %c-1_i32 : i32
// CHECK: arith.cmpi
// CHECK: arith.divsi
func.func @constants(%x: i32) -> (i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %m1 = arith.constant -1 : i32
  %a = arith.divsi %x, %c3 : i32
  %b = arith.divui %x, %m1 : i32
  %c = arith.divsi %x, %m1 : i32
  return %a, %b, %c : i32, i32, i32
}

// A shift by an amount that may be the width or more (or negative, as an
// unsigned amount): by 0 instead and 0 as the result, or, shifting right
// arithmetically, by width - 1 (the sign in every bit).
// CHECK-LABEL: func @shifts
// CHECK:      %[[W:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[FAR:.*]] = arith.cmpi uge, %arg1, %[[W]] : i32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[BY:.*]] = arith.select %[[FAR]], %[[ZERO]], %arg1 : i32
// CHECK-NEXT: %[[L:.*]] = arith.shli %arg0, %[[BY]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.select %[[FAR]], %[[ZERO]], %[[L]] : i32
// CHECK:      %[[FAR2:.*]] = arith.cmpi uge, %arg1
// CHECK-NEXT: %[[SIGN:.*]] = arith.constant 31 : i32
// CHECK-NEXT: %[[BY2:.*]] = arith.select %[[FAR2]], %[[SIGN]], %arg1 : i32
// CHECK-NEXT: %[[RIGHT:.*]] = arith.shrsi %arg0, %[[BY2]] : i32
// CHECK-NEXT: return %[[LEFT]], %[[RIGHT]]
func.func @shifts(%x: i32, %s: i32) -> (i32, i32) {
  %l = arith.shli %x, %s : i32
  %r = arith.shrsi %x, %s : i32
  return %l, %r : i32, i32
}

// A constant amount below the width needs no guard.
// CHECK-LABEL: func @constant_shift
// CHECK-NEXT: %[[C:.*]] = arith.constant 3 : i8
// CHECK-NEXT: %[[R:.*]] = arith.shrui %arg0, %[[C]] : i8
// CHECK-NEXT: return %[[R]]
func.func @constant_shift(%x: i8) -> i8 {
  %c = arith.constant 3 : i8
  %r = arith.shrui %x, %c : i8
  return %r : i8
}

// Float-to-integer casts saturate, and NaN gives 0: the cast converts 0
// instead of a value out of range, and the ends are selected.
// CHECK-LABEL: func @casts
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAST:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf oge, %arg0, %[[PAST]] : f32
// CHECK: %[[LOW:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK: %[[BELOW:.*]] = arith.cmpf ole, %arg0, %[[LOW]] : f32
// CHECK: %[[OUT:.*]] = arith.ori %[[ABOVE]], %[[BELOW]] : i1
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// CHECK: %[[BAD:.*]] = arith.ori %[[NAN]], %[[OUT]] : i1
// CHECK: %[[X:.*]] = arith.select %[[BAD]], %[[ZERO]], %arg0 : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[X]] : f32 to i32
// CHECK: %[[HI:.*]] = arith.select %[[ABOVE]], %c2147483647_i32, %[[I]] : i32
// CHECK: %[[S:.*]] = arith.select %[[BELOW]], %c-2147483648_i32, %[[HI]] : i32
// Unsigned: below 0 gives 0, 2^8 or more 255 (all ones).
// CHECK: %[[UA:.*]] = arith.cmpf oge, %arg1, %{{.*}} : f16
// CHECK: %[[UB:.*]] = arith.cmpf olt, %arg1, %{{.*}} : f16
// CHECK: arith.fptoui %{{.*}} : f16 to i8
// CHECK: arith.select %[[UA]], %c-1_i8
// CHECK: %[[U:.*]] = arith.select %[[UB]], %c0_i8
// CHECK: return %[[S]], %[[U]]
func.func @casts(%x: f32, %h: f16) -> (i32, i8) {
  %s = arith.fptosi %x : f32 to i32
  %u = arith.fptoui %h : f16 to i8
  return %s, %u : i32, i8
}

// An integer of more than 24 bits converted to bf16 is rounded to odd at
// 53 bits, exact in f64, and that rounded to bf16: once.
// CHECK-LABEL: func @to_bfloat16
// CHECK: %[[W:.*]] = arith.extsi %arg0 : i32 to i64
// CHECK: math.ctlz
// CHECK: arith.shrui
// CHECK: arith.uitofp %{{.*}} : i64 to f64
// CHECK: arith.mulf
// CHECK: arith.negf
// CHECK: arith.truncf %{{.*}} : f64 to bf16
// CHECK-NOT: arith.sitofp
// Narrower integers are exact in f32: left as they are.
// CHECK: arith.uitofp %arg1 : i16 to bf16
func.func @to_bfloat16(%x: i32, %y: i16) -> (bf16, bf16) {
  %a = arith.sitofp %x : i32 to bf16
  %b = arith.uitofp %y : i16 to bf16
  return %a, %b : bf16, bf16
}
