// bench: examples/psum.mlir without spmd, for mlir-opt and mlir-runner: the
// four rows are summed one after another (what the four devices do) and the
// total is printed, so the upstream tools parse, lower, JIT and run the same
// computation as `pcc run examples/psum.mlir`.
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %data = arith.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]>
      : tensor<4x3xi32>
  %c0 = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<4xi32>
  %zero = linalg.fill ins(%c0 : i32) outs(%empty : tensor<4xi32>) -> tensor<4xi32>
  %local = linalg.reduce ins(%data : tensor<4x3xi32>) outs(%zero : tensor<4xi32>)
      dimensions = [1]
    (%in: i32, %acc: i32) {
      %sum = arith.addi %in, %acc : i32
      linalg.yield %sum : i32
    }
  %scalar = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%c0 : i32) outs(%scalar : tensor<i32>) -> tensor<i32>
  %total = linalg.reduce ins(%local : tensor<4xi32>) outs(%init : tensor<i32>)
      dimensions = [0]
    (%in: i32, %acc: i32) {
      %sum = arith.addi %in, %acc : i32
      linalg.yield %sum : i32
    }
  %cast = tensor.cast %total : tensor<i32> to tensor<*xi32>
  call @printMemrefI32(%cast) : (tensor<*xi32>) -> ()
  return
}
