// Ops inside the bodies of others, each checked against NumPy:
// - a linalg.map and a tensor.generate in a generic's body, each reading
//   its own index: r[j] = sum_i (10 * i + j) over i < 3 (their linalg.index
//   ops must not be merged with the generic's);
// - a tensor.pad whose padding region writes into a tensor from outside it
//   (a copy per padded element): u = x + x with u[i mod 8] = 100, at 0;
// - a reduction over 300 elements (a block of cooperating threads on cuda)
//   whose body writes into a copy of an outside tensor:
//   sum over a in y of (v with v[a] = 100)[0], v = y + y.
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<8xf32>, %y: tensor<300xf32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<12xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<4xi32>
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %hundred = arith.constant 100.0 : f32
  %zero = arith.constant dense<0> : tensor<i32>
  %mapped = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<4xi32>) {
  ^bb0(%o: i32):
    %j = linalg.index 0 : index
    %inner = tensor.empty() : tensor<3xi32>
    %g = linalg.map outs(%inner : tensor<3xi32>) (%init: i32) {
      %i = linalg.index 0 : index
      %t = arith.muli %i, %c10 : index
      %s = arith.addi %t, %j : index
      %si = arith.index_cast %s : index to i32
      linalg.yield %si : i32
    }
    %sum = linalg.reduce ins(%g : tensor<3xi32>) outs(%zero : tensor<i32>) dimensions = [0]
      (%a: i32, %acc: i32) {
        %b = arith.addi %a, %acc : i32
        linalg.yield %b : i32
      }
    %v = tensor.extract %sum[] : tensor<i32>
    linalg.yield %v : i32
  } -> tensor<4xi32>
  %generated = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%e : tensor<4xi32>) {
  ^bb0(%o: i32):
    %j = linalg.index 0 : index
    %g = tensor.generate {
    ^bb0(%i: index):
      %t = arith.muli %i, %c10 : index
      %s = arith.addi %t, %j : index
      %si = arith.index_cast %s : index to i32
      tensor.yield %si : i32
    } : tensor<3xi32>
    %sum = linalg.reduce ins(%g : tensor<3xi32>) outs(%zero : tensor<i32>) dimensions = [0]
      (%a: i32, %acc: i32) {
        %b = arith.addi %a, %acc : i32
        linalg.yield %b : i32
      }
    %v = tensor.extract %sum[] : tensor<i32>
    linalg.yield %v : i32
  } -> tensor<4xi32>
  %u = arith.addf %x, %x : tensor<8xf32>
  %head = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %padded = tensor.pad %head low[0] high[8] {
  ^bb0(%i: index):
    %m = arith.remui %i, %c8 : index
    %n = tensor.insert %hundred into %u[%m] : tensor<8xf32>
    %v = tensor.extract %n[%c0] : tensor<8xf32>
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<12xf32>
  %w = arith.addf %y, %y : tensor<300xf32>
  %zf = arith.constant dense<0.0> : tensor<f32>
  %reduced = linalg.reduce ins(%y : tensor<300xf32>) outs(%zf : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %ai = arith.fptosi %a : f32 to i32
      %ax = arith.index_cast %ai : i32 to index
      %n = tensor.insert %hundred into %w[%ax] : tensor<300xf32>
      %v = tensor.extract %n[%c0] : tensor<300xf32>
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    }
  return %mapped, %generated, %padded, %reduced
      : tensor<4xi32>, tensor<4xi32>, tensor<12xf32>, tensor<f32>
}
