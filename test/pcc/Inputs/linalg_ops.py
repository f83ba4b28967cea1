"""Runs Inputs/linalg_ops.mlir and compares with NumPy (up to float32
rounding: math functions and summation order may differ by an ulp).

usage: linalg_ops.py PCC PROGRAM WORKDIR
"""

import sys

import numpy as np
from pcc_run import compare, run_pcc


def main():
    pcc, program, workdir = sys.argv[1:]
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((2, 3, 5, 2)).astype(np.float32)
    v = rng.standard_normal((2, 2)).astype(np.float32)
    got0, got1 = run_pcc(pcc, program, [a, b, v], workdir, 2)

    expected0 = np.tanh(a @ b + v[:, None, None, :])
    looped = np.exp(v)
    for _ in range(3):
        looped = np.stack([looped.sum(axis=0) * 0.5] * 2)
    return compare("linalg ops match NumPy",
                   [(got0, expected0, 1e-5, 1e-6), (got1, looped, 1e-5, 1e-6)])


if __name__ == "__main__":
    sys.exit(main())
