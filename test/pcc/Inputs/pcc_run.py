"""Shared by the end-to-end checks that compare with NumPy up to rounding:
saves the inputs as .npy files, runs `pcc run` with --save-results, and
loads the results back."""

import os
import subprocess

import numpy as np


def run_pcc(pcc, program, inputs, workdir, count, options=()):
    """Runs `program` on `inputs` (arrays, in argument order), with pcc's
    `options`, and returns its first `count` results."""
    os.makedirs(workdir, exist_ok=True)
    paths = []
    for index, value in enumerate(inputs):
        paths.append(os.path.join(workdir, f"arg{index}.npy"))
        np.save(paths[-1], value)
    out = os.path.join(workdir, "out")
    subprocess.run([pcc, "run", program, *paths, "--save-results=" + out,
                    *options],
                   check=True, stdout=subprocess.DEVNULL)
    return [np.load(os.path.join(out, f"result{index}.npy"))
            for index in range(count)]


def compare(success_message, pairs):
    """Compares (got, expected, rtol, atol) pairs with np.allclose; prints
    `success_message` and returns 0 if all match, else prints the first
    mismatch and returns 1 (a script's exit status)."""
    for got, expected, rtol, atol in pairs:
        if not np.allclose(got, expected, rtol=rtol, atol=atol):
            print("mismatch:\n", got, "\nexpected:\n", expected)
            return 1
    print(success_message)
    return 0
