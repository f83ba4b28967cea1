"""Runs examples/mlp_step.mlir (an MLP training step on 2 devices) and
compares with NumPy's step (bench/mlp_numpy.py): every device's copy of the
new parameters the same bit for bit, and each parameter and the loss
NumPy's up to the order of the sums (mlp_numpy.mismatch).

usage: mlp_step.py PCC PROGRAM BENCH_DIR WORKDIR [PCC_RUN_OPTION...]
"""

import sys

import numpy as np
from pcc_run import run_pcc


def main():
    pcc, program, bench, workdir = sys.argv[1:5]
    sys.path.insert(0, bench)
    import mlp_numpy
    params, xs, ys = mlp_numpy.init(2, 512)
    got = run_pcc(pcc, program, params + [xs, ys], workdir, 7, sys.argv[5:])
    expected, loss = mlp_numpy.step(params, xs, ys)
    for index, copies in enumerate(got):
        if any(not np.array_equal(copies[0], c) for c in copies[1:]):
            print(f"result {index}: the devices' copies differ")
            return 1
    error = mlp_numpy.mismatch([copies[0] for copies in got], params,
                               expected, loss)
    if error:
        print(error)
        return 1
    print(f"mlp step matches NumPy (loss {float(loss):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
