"""Checks examples/train_step.mlir against the same step in NumPy.

usage: train_step.py PCC EXAMPLE WORKDIR
"""

import sys

import numpy as np
from pcc_run import compare, run_pcc


def main():
    pcc, example, workdir = sys.argv[1:]
    rng = np.random.default_rng(7)
    w = rng.standard_normal((3, 2)).astype(np.float32)
    xs = rng.standard_normal((4, 8, 3)).astype(np.float32)
    ys = rng.standard_normal((4, 8, 2)).astype(np.float32)
    [got] = run_pcc(pcc, example, [w, xs, ys], workdir, 1)

    grads = [x.T @ (x @ w - y) / 8 for x, y in zip(xs, ys)]
    expected = w - 0.1 * np.mean(grads, axis=0)
    # Every device holds the same weights, bit for bit.
    assert all((got[d] == got[0]).all() for d in range(4)), got
    # Against NumPy, up to float32 summation order.
    return compare("train step matches NumPy", [(got[0], expected, 1e-5, 1e-6)])


if __name__ == "__main__":
    sys.exit(main())
