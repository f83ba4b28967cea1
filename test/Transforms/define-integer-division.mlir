// RUN: pcc-opt %s --pcc-define-integer-division | FileCheck %s

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
// CHECK-LABEL: func @tensor
// CHECK: arith.constant dense<0> : tensor<4xi8>
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : tensor<4xi8>
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
