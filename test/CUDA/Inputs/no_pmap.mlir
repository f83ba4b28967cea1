// No pmap and a scalar result: the program itself calls nothing of the cuda
// platform, which its executable must still hold (test/CUDA/sim.test).
func.func @main() -> f32 {
  %c = arith.constant 1.5 : f32
  return %c : f32
}
