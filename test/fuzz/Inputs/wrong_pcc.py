#!/usr/bin/python3
"""A wrong pcc for check-tester.test: `run` saves each result as all ones of
the input's type and shape (all zeros when PCC_SERIAL_WORK=0, as if one
placement of the devices computed differently); `compile` writes an
executable that does the same."""
import os
import sys

import numpy as np

if sys.argv[1] == "compile":
    out = sys.argv[sys.argv.index("-o") + 1]
    with open(out, "w") as f:
        f.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} "
                f"run program \"$@\"\n")
    os.chmod(out, 0o755)
    sys.exit(0)
args = sys.argv[3:]
save = next(a.split("=", 1)[1] for a in args if a.startswith("--save-results="))
array = np.load(next(a for a in args if a.endswith(".npy")))
os.makedirs(save, exist_ok=True)
value = 0 if os.environ.get("PCC_SERIAL_WORK") == "0" else 1
np.save(os.path.join(save, "result0.npy"), np.full_like(array, value))
