// Conversions to bf16 and arithmetic on it, each returned as its bits.
func.func @main(%f32: tensor<74xf32>, %f64: tensor<27xf64>, %i32: tensor<32xi32>,
                %i64: tensor<32xi64>)
    -> (tensor<74xi16>, tensor<74xi16>, tensor<27xi16>, tensor<32xi16>,
        tensor<32xi16>, tensor<32xi16>, tensor<32xi16>) {
  %a = arith.truncf %f32 : tensor<74xf32> to tensor<74xbf16>
  %aa = arith.addf %a, %a : tensor<74xbf16>
  %b = arith.truncf %f64 : tensor<27xf64> to tensor<27xbf16>
  %c = arith.sitofp %i32 : tensor<32xi32> to tensor<32xbf16>
  %d = arith.uitofp %i32 : tensor<32xi32> to tensor<32xbf16>
  %e = arith.sitofp %i64 : tensor<32xi64> to tensor<32xbf16>
  %f = arith.uitofp %i64 : tensor<32xi64> to tensor<32xbf16>
  %ra = arith.bitcast %a : tensor<74xbf16> to tensor<74xi16>
  %raa = arith.bitcast %aa : tensor<74xbf16> to tensor<74xi16>
  %rb = arith.bitcast %b : tensor<27xbf16> to tensor<27xi16>
  %rc = arith.bitcast %c : tensor<32xbf16> to tensor<32xi16>
  %rd = arith.bitcast %d : tensor<32xbf16> to tensor<32xi16>
  %re = arith.bitcast %e : tensor<32xbf16> to tensor<32xi16>
  %rf = arith.bitcast %f : tensor<32xbf16> to tensor<32xi16>
  return %ra, %raa, %rb, %rc, %rd, %re, %rf
      : tensor<74xi16>, tensor<74xi16>, tensor<27xi16>, tensor<32xi16>,
        tensor<32xi16>, tensor<32xi16>, tensor<32xi16>
}
