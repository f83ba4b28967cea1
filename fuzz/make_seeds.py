#!/usr/bin/python3
"""Writes the fuzzers' seed corpora into DIR/npy and DIR/format: .npy files
of every dtype and a few shapes (as NumPy writes them), and raw inputs for
the printer built from the same arrays."""

import io
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(os.path.join(out, "npy"), exist_ok=True)
os.makedirs(os.path.join(out, "format"), exist_ok=True)
rng = np.random.default_rng(0)
dtypes = ["bool", "int8", "int16", "int32", "int64", "float16", "float32",
          "float64"]
shapes = [(), (3,), (2, 3), (2, 1, 4), (1001,), (0, 2)]
n = 0
for dtype in dtypes:
    for shape in shapes:
        a = (rng.standard_normal(shape) * 1000).astype(dtype)
        if a.dtype.kind == "f" and a.size:
            a.flat[0] = np.nan
        buffer = io.BytesIO()
        np.save(buffer, a)
        with open(os.path.join(out, "npy", f"seed{n}.npy"), "wb") as f:
            f.write(buffer.getvalue())
        # FormatFuzzer: dtype index, rank, dims, then the data.
        index = ["bool", "int8", "int16", "int32", "int64", "float16",
                 "bfloat16", "float32", "float64"].index(dtype)
        header = bytes([index, len(shape)] + [d % 16 for d in shape])
        with open(os.path.join(out, "format", f"seed{n}"), "wb") as f:
            f.write(header + a.tobytes()[:4096])
        n += 1
