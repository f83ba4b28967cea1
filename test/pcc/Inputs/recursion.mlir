// f(n) = n - f(n - 1), f(0) = 0: recursion that LLVM cannot turn into a
// loop. Device k computes f(n + k) directly and through a function pointer
// (func.call_indirect), and the host computes f(100 n); the results are
// [f(n) + f(n) + f(n + 1) + f(n + 1), ...] for each device, then f(100 n).
func.func @f(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %done = arith.cmpi sle, %n, %c0 : i64
  %r = scf.if %done -> (i64) {
    scf.yield %c0 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %s = func.call @f(%m) : (i64) -> i64
    %t = arith.subi %n, %s : i64
    scf.yield %t : i64
  }
  return %r : i64
}

func.func @f_indirect(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %done = arith.cmpi sle, %n, %c0 : i64
  %r = scf.if %done -> (i64) {
    scf.yield %c0 : i64
  } else {
    %self = func.constant @f_indirect : (i64) -> i64
    %m = arith.subi %n, %c1 : i64
    %s = func.call_indirect %self(%m) : (i64) -> i64
    %t = arith.subi %n, %s : i64
    scf.yield %t : i64
  }
  return %r : i64
}

func.func @main(%n: tensor<i64>) -> (tensor<2xi64>, tensor<i64>) {
  %v = tensor.extract %n[] : tensor<i64>
  %r = spmd.pmap "i" size 2 () -> (tensor<2xi64>) {
    %k = spmd.axis_index "i" : index
    %ki = arith.index_cast %k : index to i64
    %w = arith.addi %v, %ki : i64
    %a = func.call @f(%w) : (i64) -> i64
    %b = func.call @f_indirect(%w) : (i64) -> i64
    %ab = arith.addi %a, %b : i64
    %s = spmd.psum %ab over "i" : i64
    spmd.yield %s : i64
  }
  %c100 = arith.constant 100 : i64
  %hv = arith.muli %v, %c100 : i64
  %h = func.call @f(%hv) : (i64) -> i64
  %ht = tensor.from_elements %h : tensor<i64>
  return %r, %ht : tensor<2xi64>, tensor<i64>
}
