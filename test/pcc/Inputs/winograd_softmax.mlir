// A 3x3 convolution as upstream's Winograd rewrite writes it (F(4, 3):
// filter and input transforms, a batch matmul, the output transform), and
// linalg.softmax over the channels of its result, in a pmap of 2 devices
// that each convolve their own image with a shared filter. Checked against
// NumPy by winograd_softmax.py.
func.func @main(%images: tensor<2x1x11x11x5xf32>, %filter: tensor<2x3x3x5xf32>)
    -> (tensor<2x1x9x9x2xf32>, tensor<2x1x9x9x2xf32>) {
  %r:2 = spmd.pmap "i" (%x = %images : tensor<2x1x11x11x5xf32>)
      -> (tensor<2x1x9x9x2xf32>, tensor<2x1x9x9x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<6x6x5x2xf32>
    %f = linalg.winograd_filter_transform fmr(F_4_3)
        ins(%filter : tensor<2x3x3x5xf32>) outs(%e0 : tensor<6x6x5x2xf32>)
        -> tensor<6x6x5x2xf32>
    // 9 output rows need 3 tiles of 4: the input is padded to 3 * 4 + 2.
    %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 3, 3, 0] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %zero : f32
    } : tensor<1x11x11x5xf32> to tensor<1x14x14x5xf32>
    %e1 = tensor.empty() : tensor<6x6x3x3x1x5xf32>
    %in = linalg.winograd_input_transform fmr(F_4_3)
        ins(%padded : tensor<1x14x14x5xf32>)
        outs(%e1 : tensor<6x6x3x3x1x5xf32>) -> tensor<6x6x3x3x1x5xf32>
    %fc = tensor.collapse_shape %f [[0, 1], [2], [3]]
        : tensor<6x6x5x2xf32> into tensor<36x5x2xf32>
    %ic = tensor.collapse_shape %in [[0, 1], [2, 3, 4], [5]]
        : tensor<6x6x3x3x1x5xf32> into tensor<36x9x5xf32>
    %e2 = tensor.empty() : tensor<36x9x2xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<36x9x2xf32>)
        -> tensor<36x9x2xf32>
    %m = linalg.batch_matmul ins(%ic, %fc : tensor<36x9x5xf32>, tensor<36x5x2xf32>)
        outs(%z2 : tensor<36x9x2xf32>) -> tensor<36x9x2xf32>
    %me = tensor.expand_shape %m [[0, 1], [2, 3, 4], [5]]
        output_shape [6, 6, 3, 3, 1, 2]
        : tensor<36x9x2xf32> into tensor<6x6x3x3x1x2xf32>
    %e3 = tensor.empty() : tensor<1x12x12x2xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x12x12x2xf32>)
        -> tensor<1x12x12x2xf32>
    %out = linalg.winograd_output_transform fmr(F_4_3)
        ins(%me : tensor<6x6x3x3x1x2xf32>) outs(%z3 : tensor<1x12x12x2xf32>)
        -> tensor<1x12x12x2xf32>
    %conv = tensor.extract_slice %out[0, 0, 0, 0] [1, 9, 9, 2] [1, 1, 1, 1]
        : tensor<1x12x12x2xf32> to tensor<1x9x9x2xf32>
    %e4 = tensor.empty() : tensor<1x9x9x2xf32>
    %soft = linalg.softmax dimension(3) ins(%conv : tensor<1x9x9x2xf32>)
        outs(%e4 : tensor<1x9x9x2xf32>) -> tensor<1x9x9x2xf32>
    spmd.yield %conv, %soft : tensor<1x9x9x2xf32>, tensor<1x9x9x2xf32>
  }
  return %r#0, %r#1 : tensor<2x1x9x9x2xf32>, tensor<2x1x9x9x2xf32>
}
