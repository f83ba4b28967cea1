"""Runs Inputs/linalg_ops.mlir and compares with NumPy (up to float32
rounding: math functions and summation order may differ by an ulp).

usage: linalg_ops.py PCC PROGRAM WORKDIR
"""

import os
import subprocess
import sys

import numpy as np


def main():
    pcc, program, workdir = sys.argv[1:]
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((2, 3, 5, 2)).astype(np.float32)
    v = rng.standard_normal((2, 2)).astype(np.float32)
    paths = []
    for name, value in (("a", a), ("b", b), ("v", v)):
        paths.append(os.path.join(workdir, name + ".npy"))
        np.save(paths[-1], value)
    out = os.path.join(workdir, "out")
    subprocess.run([pcc, "run", program, *paths, "--save-results=" + out],
                   check=True, stdout=subprocess.DEVNULL)
    got0 = np.load(os.path.join(out, "result0.npy"))
    got1 = np.load(os.path.join(out, "result1.npy"))

    expected0 = np.tanh(a @ b + v[:, None, None, :])
    looped = np.exp(v)
    for _ in range(3):
        looped = np.stack([looped.sum(axis=0) * 0.5] * 2)
    ok = (np.allclose(got0, expected0, rtol=1e-5, atol=1e-6) and
          np.allclose(got1, looped, rtol=1e-5, atol=1e-6))
    if not ok:
        print("mismatch\n", got0, expected0, got1, looped)
        return 1
    print("linalg ops match NumPy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
