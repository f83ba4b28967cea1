// Mixture-of-experts dispatch with all_to_all, as in JAX:
//
//   def moe(tokens):                    # per device: 4 tokens x 2 features,
//     x = lax.all_to_all(tokens, 'e', 0, 0, tiled=True)  # token j for expert j
//     y = expert(x)                     # expert d doubles and adds d
//     return lax.all_to_all(y, 'e', 0, 0, tiled=True)    # back to its sender
//
// Each of 4 devices hosts one expert and holds 4 tokens, the j-th routed
// to expert j. The first all_to_all sends token j to device j, which then
// holds one token from every device, in device order; the expert applies
// 2 * x + d; the second all_to_all returns each result to where its token
// came from. Device d's token j is [10 * d + j, -(10 * d + j)], so it comes
// back as 2 * token + j.
// Expected output:
//   [[[  0   0]
//     [  3  -1]
//     [  6  -2]
//     [  9  -3]]
//
//    [[ 20 -20]
//     [ 23 -21]
//     [ 26 -22]
//     [ 29 -23]]
//
//    [[ 40 -40]
//     [ 43 -41]
//     [ 46 -42]
//     [ 49 -43]]
//
//    [[ 60 -60]
//     [ 63 -61]
//     [ 66 -62]
//     [ 69 -63]]]
func.func @main() -> tensor<4x4x2xi32> {
  %tokens = arith.constant dense<[
      [[0, 0], [1, -1], [2, -2], [3, -3]],
      [[10, -10], [11, -11], [12, -12], [13, -13]],
      [[20, -20], [21, -21], [22, -22], [23, -23]],
      [[30, -30], [31, -31], [32, -32], [33, -33]]]> : tensor<4x4x2xi32>
  %r = spmd.pmap "e" (%x = %tokens : tensor<4x4x2xi32>) -> (tensor<4x4x2xi32>) {
    %routed = spmd.all_to_all %x over "e" split 0 concat 0 tiled
        : tensor<4x2xi32> -> tensor<4x2xi32>
    %d = spmd.axis_index "e" : index
    %di = arith.index_cast %d : index to i32
    %bias = tensor.splat %di : tensor<4x2xi32>
    %doubled = arith.addi %routed, %routed : tensor<4x2xi32>
    %y = arith.addi %doubled, %bias : tensor<4x2xi32>
    %back = spmd.all_to_all %y over "e" split 0 concat 0 tiled
        : tensor<4x2xi32> -> tensor<4x2xi32>
    spmd.yield %back : tensor<4x2xi32>
  }
  return %r : tensor<4x4x2xi32>
}
