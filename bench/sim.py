#!/usr/bin/env python3
"""The simulated GPU's speed: what --backend=cuda-sim costs a test.

Times, on this machine, `pcc run --backend=cuda-sim` of a 256x256x256 f32
matmul (the tiled shared-memory kernel, 16x16 threads per block, two
barriers per tile) and of a row sum of a 1024x1024 f32 matrix (one block
of 256 threads per row: strided partial sums, warp shuffles, shared
memory), each checked against NumPy, against `--backend=cpu` on the same
program; then the whole NumPy oracle of the test suite on cuda-sim
(oversubscribed on one GPU and natively). Prints a Markdown table; medians
of --runs runs (wall time of the whole pcc process: compile and run).

    /usr/bin/python3 bench/sim.py [--pcc build/bin/pcc] [--runs 3]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MATMUL = """func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
"""

ROW_SUM = """func.func @main(%a: tensor<1024x1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.reduce ins(%a : tensor<1024x1024xf32>) outs(%z : tensor<1024xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1024xf32>
}
"""


def timed(command, env=None):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr}")
    return elapsed, result.stdout


def program_rows(pcc, runs, tmp):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 256)).astype(np.float32)
    b = rng.standard_normal((256, 256)).astype(np.float32)
    m = rng.standard_normal((1024, 1024)).astype(np.float32)
    cases = [("matmul 256x256x256 f32", MATMUL, [a, b],
              a.astype(np.float64) @ b.astype(np.float64), 1e-4),
             ("row sum 1024x1024 f32", ROW_SUM, [m],
              m.astype(np.float64).sum(axis=1), 1e-4)]
    rows = []
    for name, text, inputs, expected, tolerance in cases:
        path = os.path.join(tmp, "program.mlir")
        with open(path, "w") as f:
            f.write(text)
        files = []
        for i, value in enumerate(inputs):
            files.append(os.path.join(tmp, f"arg{i}.npy"))
            np.save(files[-1], value)
        times = {}
        for backend in ("cuda-sim", "cpu"):
            out = os.path.join(tmp, backend)
            samples = [timed([pcc, "run", path, *files,
                              f"--backend={backend}",
                              f"--save-results={out}"])[0]
                       for _ in range(runs)]
            got = np.load(os.path.join(out, "result0.npy")).astype(np.float64)
            error = np.abs(got - expected).max() / max(1.0, np.abs(expected).max())
            if error > tolerance:
                sys.exit(f"{name} on {backend}: relative error {error}")
            times[backend] = statistics.median(samples)
        rows.append((name, times["cuda-sim"], times["cpu"]))
    return rows


def oracle_rows(pcc, tmp):
    rows = []
    for label, flags, env_extra in [
            ("NumPy oracle, 1 GPU, --oversubscribe",
             "--backend=cuda-sim --oversubscribe", {"PCC_SIM_GPUS": "1"}),
            ("NumPy oracle, a GPU per device (NCCL)", "--backend=cuda-sim", {})]:
        env = dict(os.environ, PCC=pcc, PCC_VIA="jit", PCC_VIA_FLAGS=flags,
                   **env_extra)
        elapsed, out = timed([sys.executable,
                              os.path.join(ROOT, "test/pcc/Inputs/oracle.py"),
                              os.path.join(ROOT, "test/Inputs/pcc_via.py")],
                             env=env)
        summary = out.strip().splitlines()[-1]
        if " 0 failed" not in summary:
            sys.exit(f"{label}: {summary}")
        rows.append((f"{label} ({summary.split(': ')[1]})", elapsed))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pcc", default=os.path.join(ROOT, "build/bin/pcc"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        programs = program_rows(args.pcc, args.runs, tmp)
        oracle = oracle_rows(args.pcc, tmp)
    print("| what (whole `pcc run`, median of %d) | cuda-sim | cpu |" % args.runs)
    print("|---|---|---|")
    for name, sim, cpu in programs:
        print(f"| {name} | {sim:.2f} s | {cpu:.2f} s |")
    for name, elapsed in oracle:
        print(f"| {name} | {elapsed:.1f} s | |")


if __name__ == "__main__":
    main()
