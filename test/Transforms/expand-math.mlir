// RUN: pcc-opt %s --pcc-expand-math | FileCheck %s

// CHECK-LABEL: func @rsqrt
// CHECK: %[[S:.*]] = math.sqrt %arg0 : f32
// CHECK: arith.divf %{{.*}}, %[[S]] : f32
// CHECK-NOT: math.rsqrt
func.func @rsqrt(%x: f32) -> f32 {
  %r = math.rsqrt %x : f32
  return %r : f32
}

// CHECK-LABEL: func @copysign
// CHECK: %[[X:.*]] = arith.bitcast %arg0 : f64 to i64
// CHECK: %[[M:.*]] = arith.andi %[[X]], %c9223372036854775807_i64
// CHECK: %[[Y:.*]] = arith.bitcast %arg1 : f64 to i64
// CHECK: %[[SIGN:.*]] = arith.andi %[[Y]], %c-9223372036854775808_i64
// CHECK: %[[R:.*]] = arith.ori %[[M]], %[[SIGN]] : i64
// CHECK: arith.bitcast %[[R]] : i64 to f64
func.func @copysign(%x: f64, %y: f64) -> f64 {
  %r = math.copysign %x, %y : f64
  return %r : f64
}

// CHECK-LABEL: func @copysign_bf16
// CHECK: arith.bitcast %arg0 : bf16 to i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @copysign_bf16(%x: bf16, %y: bf16) -> bf16 {
  %r = math.copysign %x, %y : bf16
  return %r : bf16
}

// CHECK-LABEL: func @fpowi
// CHECK: %[[F:.*]] = arith.sitofp %arg1 : i32 to f32
// CHECK: math.powf %arg0, %[[F]] : f32
// CHECK-NOT: math.fpowi
func.func @fpowi(%x: f32, %n: i32) -> f32 {
  %r = math.fpowi %x, %n : f32, i32
  return %r : f32
}

// CHECK-LABEL: func @classify
// CHECK: %[[A:.*]] = math.absf %arg0 : f32
// CHECK: arith.cmpf oeq, %[[A]], %cst{{.*}} : f32
// CHECK: %[[B:.*]] = math.absf %arg0 : f32
// CHECK-DAG: %[[GE:.*]] = arith.cmpf oge, %[[B]], %cst{{.*}} : f32
// CHECK-DAG: %[[LT:.*]] = arith.cmpf olt, %[[B]], %cst{{.*}} : f32
// CHECK: arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NOT: math.isinf
// CHECK-NOT: math.isnormal
func.func @classify(%x: f32) -> (i1, i1) {
  %i = math.isinf %x : f32
  %n = math.isnormal %x : f32
  return %i, %n : i1, i1
}

// expm1 from exp and log (Kahan): x where exp(x) rounds to 1, -1 where
// exp(x) - 1 does, exp(x) where it overflows, else (u - 1) * (x / log(u)).
// CHECK-LABEL: func @expm1
// CHECK: %[[U:.*]] = math.exp %arg0 : f64
// CHECK: %[[UM1:.*]] = arith.subf %[[U]], %[[ONE:.*]] : f64
// CHECK: %[[L:.*]] = math.log %[[U]] : f64
// CHECK: %[[R:.*]] = arith.divf %arg0, %[[L]] : f64
// CHECK: %[[G:.*]] = arith.mulf %[[UM1]], %[[R]] : f64
// CHECK: %[[INF:.*]] = arith.cmpf oeq, %[[U]], %{{.*}} : f64
// CHECK: %[[R1:.*]] = arith.select %[[INF]], %[[U]], %[[G]] : f64
// CHECK: %[[M1:.*]] = arith.cmpf oeq, %[[UM1]], %[[MINUS:.*]] : f64
// CHECK: %[[R2:.*]] = arith.select %[[M1]], %[[MINUS]], %[[R1]] : f64
// CHECK: %[[ISONE:.*]] = arith.cmpf oeq, %[[U]], %[[ONE]] : f64
// CHECK: %[[R3:.*]] = arith.select %[[ISONE]], %arg0, %[[R2]] : f64
// CHECK: return %[[R3]]
// CHECK-NOT: math.expm1
func.func @expm1(%x: f64) -> f64 {
  %r = math.expm1 %x : f64
  return %r : f64
}
