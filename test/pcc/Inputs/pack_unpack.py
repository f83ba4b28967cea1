"""Runs Inputs/pack_unpack.mlir and compares with NumPy, exactly (integers).

usage: pack_unpack.py PCC PROGRAM WORKDIR [PCC OPTIONS...]
"""

import sys

import numpy as np
from pcc_run import compare, run_pcc


def main():
    pcc, program, workdir = sys.argv[1:4]
    rng = np.random.default_rng(5)
    a = rng.integers(-100, 100, size=(2, 5, 6), dtype=np.int32)
    got_packed, got_unpacked = run_pcc(pcc, program, [a], workdir, 2,
                                       sys.argv[4:])
    total = a.sum(axis=0, dtype=np.int32)
    # Pad rows to whole tiles of 3 with the padding value, once per device.
    padded = np.full((6, 6), -2, np.int32)
    padded[:5] = total
    # [row tiles, 3, column tiles, 2] -> [column tiles, row tiles, 3, 2];
    # the program yields it with the two outer dims swapped back.
    tiles = padded.reshape(2, 3, 3, 2).transpose(0, 2, 1, 3)
    expected_packed = np.stack([tiles] * 2)
    expected_unpacked = np.stack([total] * 2)
    return compare("pack and unpack match NumPy",
                   [(got_packed, expected_packed, 0, 0),
                    (got_unpacked, expected_unpacked, 0, 0)])


if __name__ == "__main__":
    sys.exit(main())
