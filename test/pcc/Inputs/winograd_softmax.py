"""Runs Inputs/winograd_softmax.mlir and compares with NumPy: a direct 3x3
convolution (NHWC images, FHWC filter) and a softmax over its channels.

usage: winograd_softmax.py PCC PROGRAM WORKDIR [PCC OPTIONS...]
"""

import sys

import numpy as np
from pcc_run import compare, run_pcc


def main():
    pcc, program, workdir = sys.argv[1:4]
    rng = np.random.default_rng(7)
    images = rng.uniform(-1, 1, size=(2, 1, 11, 11, 5)).astype(np.float32)
    filt = rng.uniform(-1, 1, size=(2, 3, 3, 5)).astype(np.float32)
    got_conv, got_soft = run_pcc(pcc, program, [images, filt], workdir, 2,
                                 sys.argv[4:])
    x = images.astype(np.float64)
    conv = np.zeros((2, 1, 9, 9, 2))
    for dh in range(3):
        for dw in range(3):
            window = x[:, :, dh:dh + 9, dw:dw + 9, :]
            conv += np.einsum("dnhwc,fc->dnhwf", window, filt[:, dh, dw, :])
    soft = np.exp(conv - conv.max(axis=-1, keepdims=True))
    soft /= soft.sum(axis=-1, keepdims=True)
    # The transforms' constants and orders of summation differ from the
    # direct sum: agreement to a few f32 roundings of values up to ~10.
    return compare("winograd convolution and softmax match NumPy",
                   [(got_conv, conv, 1e-4, 1e-5),
                    (got_soft, soft, 1e-5, 1e-5)])


if __name__ == "__main__":
    sys.exit(main())
