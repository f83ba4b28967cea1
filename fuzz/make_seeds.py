#!/usr/bin/python3
"""Writes the fuzzers' seed corpora into DIR/npy, DIR/format and
DIR/pipeline: .npy files of every dtype and a few shapes (as NumPy writes
them), raw inputs for the printer built from the same arrays, and the
programs of examples/ and test/."""

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

# PipelineFuzzer: every program in examples/ and test/, one per `// -----`
# split, without the lit RUN and CHECK lines.
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.makedirs(os.path.join(out, "pipeline"), exist_ok=True)
n = 0
for directory in ("examples", "test"):
    for base, _, files in sorted(os.walk(os.path.join(root, directory))):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(base, name), encoding="utf-8") as f:
                text = f.read()
            for part in text.split("// -----"):
                lines = [line for line in part.splitlines()
                         if not line.lstrip().startswith(("// RUN", "// CHECK",
                                                          "// expected-"))]
                program = "\n".join(lines).strip()
                if program:
                    with open(os.path.join(out, "pipeline", f"seed{n}.mlir"),
                              "w", encoding="utf-8") as f:
                        f.write(program + "\n")
                    n += 1
