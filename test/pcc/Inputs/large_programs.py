#!/usr/bin/python3
"""Runs the compile-time benchmark's large programs (bench/run.py: a chain
of K mulf + psum steps, a training step with one pmean per parameter
tensor) through `pcc run` and checks their results against NumPy: the
outlining of large functions (pcc-outline-segments) and the constants
cloned per use (pcc-clone-tensor-constants) must not change a bit, nor
must generating the code in parts on several threads (--codegen-threads).
Also checks that the programs were large enough to be outlined.

    large_programs.py PCC SCRATCH_DIR
"""

import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
import run as bench  # noqa: E402

bench.np = np


def pcc_run(pcc, source, args, backend="cpu"):
    """The result of `pcc run` and how many threads generated its code."""
    saved = source + ".results"
    run = subprocess.run([pcc, "run", source, f"--backend={backend}",
                          "--verbose",
                          *args, f"--save-results={saved}"], check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    threads = [line.split(":")[-1].strip() for line in run.stderr.splitlines()
               if line.startswith("pcc: codegen threads:")]
    return np.load(os.path.join(saved, "result0.npy")), threads[0]


def outlined_functions(pcc, source):
    lowered = source + ".ll.mlir"
    subprocess.run([pcc, "compile", source, "--backend=cpu", "--emit=mlir",
                    "-o", lowered], check=True)
    return open(lowered).read().count("_segment")


def main():
    pcc, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    for k in (1, 7, 400):
        source = os.path.join(scratch, f"chain{k}.mlir")
        with open(source, "w") as f:
            f.write(bench.psum_chain(k))
        got, _ = pcc_run(pcc, source, [])
        expected = bench.psum_chain_expected(k)
        if not np.array_equal(got, expected):
            sys.exit(f"chain K={k}: got {got}, NumPy {expected}")
        print(f"chain K={k}: equal to NumPy bit for bit, "
              f"outlined: {outlined_functions(pcc, source) > 0}")
    source = os.path.join(scratch, "chain1600.mlir")
    with open(source, "w") as f:
        f.write(bench.psum_chain(1600))
    expected = bench.psum_chain_expected(1600)
    for threads in (1, 2, 3):
        got, used = pcc_run(pcc, source, [f"--codegen-threads={threads}"])
        if not np.array_equal(got, expected):
            sys.exit(f"chain K=1600 on {threads} threads: got {got}, "
                     f"NumPy {expected}")
        print(f"chain K=1600, --codegen-threads={threads}: equal to NumPy "
              f"bit for bit, code generated on {used}")
    # The cuda pipeline loads its kernels in the module's constructors,
    # which the JIT gathers before it splits the module.
    source = os.path.join(scratch, "chain400.mlir")
    got, used = pcc_run(pcc, source, ["--codegen-threads=2"], "cuda-sim")
    if not np.array_equal(got, bench.psum_chain_expected(400)):
        sys.exit(f"chain K=400 on cuda-sim: got {got}")
    print(f"chain K=400 on cuda-sim, --codegen-threads=2: equal to NumPy bit "
          f"for bit, code generated on {used}")
    x = np.arange(128, dtype=np.float32).reshape(2, 64) / 128
    inputs = os.path.join(scratch, "x.npy")
    np.save(inputs, x)
    for params in (3, 200):
        source = os.path.join(scratch, f"train{params}.mlir")
        with open(source, "w") as f:
            f.write(bench.train_step(params))
        got, _ = pcc_run(pcc, source, [inputs])
        expected = bench.train_step_expected(params, x)
        if not np.array_equal(got, expected):
            sys.exit(f"train step, {params} pmeans: got {got}, "
                     f"NumPy {expected}")
        print(f"train step, {params} pmeans: equal to NumPy bit for bit, "
              f"outlined: {outlined_functions(pcc, source) > 0}")


if __name__ == "__main__":
    main()
