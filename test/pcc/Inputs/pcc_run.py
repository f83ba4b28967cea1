"""Shared by the end-to-end checks that compare with NumPy up to rounding:
saves the inputs as .npy files, runs `pcc run` with --save-results, and
loads the results back."""

import os
import subprocess

import numpy as np


def run_pcc(pcc, program, inputs, workdir, count):
    """Runs `program` on `inputs` (arrays, in argument order) and returns its
    first `count` results."""
    os.makedirs(workdir, exist_ok=True)
    paths = []
    for index, value in enumerate(inputs):
        paths.append(os.path.join(workdir, f"arg{index}.npy"))
        np.save(paths[-1], value)
    out = os.path.join(workdir, "out")
    subprocess.run([pcc, "run", program, *paths, "--save-results=" + out],
                   check=True, stdout=subprocess.DEVNULL)
    return [np.load(os.path.join(out, f"result{index}.npy"))
            for index in range(count)]
