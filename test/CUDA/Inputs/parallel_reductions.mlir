// scf.parallel loops that reduce: a sum and a maximum over a 2-D range
// with a step, and a sum in a pmap body.
func.func @main(%a: tensor<4xi64>) -> (i64, i64, tensor<4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %least = arith.constant -100 : i64
  // sum and max of (i - 5) * j for i in range(0, 10, 3), j in range(4)
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c4) step (%c3, %c1) init(%zero, %least) -> (i64, i64) {
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %five = arith.constant 5 : i64
    %d = arith.subi %ii, %five : i64
    %v = arith.muli %d, %jj : i64
    scf.reduce(%v, %v : i64, i64) {
    ^bb0(%x: i64, %y: i64):
      %s = arith.addi %x, %y : i64
      scf.reduce.return %s : i64
    }, {
    ^bb0(%x: i64, %y: i64):
      %m = arith.maxsi %x, %y : i64
      scf.reduce.return %m : i64
    }
  }
  // On each of 4 devices: x * (0 + 1 + 2), its element times range(3)'s sum.
  %p = spmd.pmap "d" (%x = %a : tensor<4xi64>) -> (tensor<4xi64>) {
    %e = tensor.extract %x[] : tensor<i64>
    %s = scf.parallel (%k) = (%c0) to (%c3) step (%c1) init(%zero) -> i64 {
      %kk = arith.index_cast %k : index to i64
      %t = arith.muli %e, %kk : i64
      scf.reduce(%t : i64) {
      ^bb0(%x2: i64, %y2: i64):
        %s2 = arith.addi %x2, %y2 : i64
        scf.reduce.return %s2 : i64
      }
    }
    %st = tensor.from_elements %s : tensor<i64>
    spmd.yield %st : tensor<i64>
  }
  return %r#0, %r#1, %p : i64, i64, tensor<4xi64>
}
