"""What the NumPy checks of test/mpi share: a program run under the
launcher, its results read back whole from --save-results (printing would
show only their corners)."""

import os
import subprocess

import numpy as np


def run_saved(launcher, pcc, workdir, name, processes, program, x,
              options=()):
    """Writes `program` and its input `x` under `workdir` as `name`, runs
    `pcc run` on `processes` processes with `options`; returns (results,
    None), or (None, what went wrong)."""
    source = os.path.join(workdir, name + ".mlir")
    with open(source, "w") as handle:
        handle.write(program)
    arg = os.path.join(workdir, name + ".npy")
    np.save(arg, x)
    results = os.path.join(workdir, name + ".results")
    proc = subprocess.run(
        launcher + ["-np", str(processes), pcc, "run", source, arg,
                    *options, "--save-results", results],
        capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return None, f"exit {proc.returncode}\n{proc.stderr[-2000:]}"
    count = len([f for f in os.listdir(results) if f.endswith(".npy")])
    return [np.load(os.path.join(results, f"result{i}.npy"))
            for i in range(count)], None


def report(what, passed, failures):
    """Prints the failures and the line the test checks; the exit status."""
    for failure in failures:
        print(failure)
    print(f"{what}: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0
