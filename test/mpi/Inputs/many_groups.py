"""Runs Inputs/many_groups.mlir on two processes with the launcher given
and checks its results against NumPy, bit for bit. MODE says how the
processes' messages travel: `shared` (mailboxes in shared memory for some
groups, MPI for the others), `mpi` (PCC_SHARED_MEMORY=0: all by MPI, as
between machines) or `disagree` (only process 1 sets PCC_SHARED_MEMORY=0:
both must then use MPI).

usage: many_groups.py MODE PCC WORKDIR LAUNCHER..."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from mpi_runs import report, run_saved  # noqa: E402


def expected(x, y):
    """NumPy's steps, in float32 as the devices compute them."""
    i = np.arange(2, dtype=np.float32).reshape(2, 1, 1)
    s, t = x.copy(), y.copy()
    for _ in range(40):
        s = (s[0] + s[1]) * np.float32(0.5) + i
        t = (t[0] + t[1]) * np.float32(0.5) + i
    gathered = np.concatenate([s[0], s[1]], axis=-1)
    return [s, t, np.broadcast_to(gathered, (2, 16, 8))]


def main():
    mode, pcc, workdir, launcher = (sys.argv[1], sys.argv[2], sys.argv[3],
                                    sys.argv[4:])
    if mode == "mpi":
        os.environ["PCC_SHARED_MEMORY"] = "0"
    elif mode == "disagree":
        wrapper = os.path.join(workdir, "pcc_rank1_without_shared_memory")
        with open(wrapper, "w") as handle:
            handle.write('#!/bin/sh\n[ "$OMPI_COMM_WORLD_RANK" = 1 ] && '
                         'export PCC_SHARED_MEMORY=0\n'
                         f'exec {os.path.abspath(pcc)} "$@"\n')
        os.chmod(wrapper, 0o755)
        pcc = wrapper
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 16, 4), dtype=np.float32)
    y = rng.standard_normal((2, 16, 16384), dtype=np.float32)
    with open(os.path.join(os.path.dirname(__file__),
                           "many_groups.mlir")) as handle:
        program = handle.read()
    # run_saved takes one input; the program's second is saved beside it.
    np.save(os.path.join(workdir, "y.npy"), y)
    results, error = run_saved(launcher, pcc, workdir, "many_groups", 2,
                               program, x,
                               options=[os.path.join(workdir, "y.npy")])
    failures = []
    if error:
        failures.append(error)
    else:
        for k, (got, want) in enumerate(zip(results, expected(x, y))):
            if got.shape != want.shape or got.tobytes() != want.tobytes():
                failures.append(f"result {k} differs from NumPy's")
    return report(f"many groups ({mode})",
                  0 if error else len(results) - len(failures), failures)


if __name__ == "__main__":
    sys.exit(main())
