"""Writes float_to_int.mlir's arguments and prints what it must print:
each cast saturating (NaN gives 0, a value past the type's range its
nearest end), computed in Python's exact arithmetic.

usage: float_to_int.py DIR
"""

import math
import os
import sys

import numpy as np

SPECIAL = [math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, 0.99, -0.99,
           1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 127.0, 127.9, 128.0, -128.0,
           -128.5, -129.0, 255.0, 255.5, 256.0, 32767.0, 32768.0, 65535.0,
           65536.0, -32768.0, -32769.0, 2147483520.0, 2147483648.0,
           -2147483648.0, -2147483904.0, 3e9, -3e9, 4294967040.0,
           4294967296.0, 1e19, -1e19, 1.8e19, 1e30, -1e30, 3.4e38, -3.4e38,
           65504.0, -65504.0]


def saturate(values, bits, signed):
    """Each value's integer part, clamped to the range of the integer type;
    NaN gives 0. Returned as the signed type of that width (as pcc prints
    it), or bool for one signed bit."""
    low, high = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                 else (0, (1 << bits) - 1))
    out = []
    for v in values.astype(np.float64):
        if math.isnan(v):
            out.append(0)
        elif math.isinf(v):
            out.append(high if v > 0 else low)
        else:
            out.append(min(max(math.trunc(v), low), high))
    if bits == 1:
        return np.array(out) != 0
    wrapped = [((x - (1 << bits)) if x >= (1 << (bits - 1)) else x)
               for x in out]
    return np.array(wrapped, dtype=f"int{bits}")


def main():
    directory = sys.argv[1]
    rng = np.random.default_rng(7)
    a = np.concatenate([np.array(SPECIAL, np.float32),
                        rng.uniform(-300, 300, 67 - len(SPECIAL))
                        .astype(np.float32)])
    with np.errstate(over="ignore"):
        h = a.astype(np.float16)
    np.save(os.path.join(directory, "a.npy"), a)
    np.save(os.path.join(directory, "h.npy"), h)
    for bits, signed in ((1, True), (8, True), (8, False), (16, False),
                         (32, True), (32, False), (64, True), (64, False)):
        print(saturate(a, bits, signed))
    print(saturate(h, 32, True))
    print(saturate(h, 8, False))


if __name__ == "__main__":
    main()
