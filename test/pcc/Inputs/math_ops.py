"""Runs Inputs/math_ops.mlir and compares with Python's math module.

usage: math_ops.py PCC PROGRAM WORKDIR
"""

import math
import sys

import numpy as np
from pcc_run import compare, run_pcc


def main():
    pcc, program, workdir = sys.argv[1:]
    rng = np.random.default_rng(11)
    a = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
    b = rng.uniform(-8, 8, (2, 3)).astype(np.float64)
    got0, got1 = run_pcc(pcc, program, [a, b], workdir, 2)
    expected0 = np.vectorize(lambda v: math.tan(math.erf(v)))(a)
    expected1 = np.vectorize(
        lambda v: math.atan2(math.copysign(abs(v) ** (1 / 3), v), v))(b)
    return compare("math ops match Python",
                   [(got0, expected0, 1e-5, 0), (got1, expected1, 1e-12, 0)])


if __name__ == "__main__":
    sys.exit(main())
