// An entry whose quoted name holds a newline and a backslash ("a\nb\\c").
func.func @"a\0Ab\5Cc"(%a: tensor<2xi32>) -> tensor<2xi32> {
  return %a : tensor<2xi32>
}
