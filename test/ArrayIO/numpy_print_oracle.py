#!/usr/bin/python3
"""Compares PCCArrayIO's formatArray with NumPy's own str() of the same arrays.

Generates a few hundred arrays of every dtype NumPy and pcc share (bf16 has
no NumPy counterpart) and of rank 0 to 4 -- random values of many
magnitudes, hand-picked cases for the formatting rules, special values
(nan, inf, -0.0, subnormals, integer limits), arrays past the 1000-element
summarisation threshold and rows long enough to wrap -- saves each with
np.save (some in format versions 2.0 and 3.0), runs `arrayio-print` on all
of them and checks that every printed array equals str(array) exactly and
that the arrays it writes back are byte-identical to np.save's files.
Exits 1 with a readable diff of the first mismatches.

Needs NumPy: run it with /usr/bin/python3 (Debian's NumPy 1.24).
"""

import argparse
import difflib
import io
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("numpy_print_oracle.py: this script needs NumPy; run it with "
             "/usr/bin/python3")

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64]
DTYPES = INTS + FLOATS + [np.bool_]


def hand_picked():
    """Cases that pin down individual formatting rules."""
    f64, f32, f16 = np.float64, np.float32, np.float16
    nan, inf = np.nan, np.inf
    cases = [
        np.array([1e-5, 1e10]),
        np.array([0.1, 0.2]),
        np.array([1.0, 2.0]),
        np.array([1.5, -2.0]),
        np.array([nan, inf, -inf]),
        np.array([nan, 1.0]),
        np.array([-inf, 1.5, 100.25]),
        np.array([nan, 1e-20]),
        np.array([0.0, -0.0]),
        np.array([-0.0, 1.0]),
        np.array([1e-4, 1e-3]),
        np.array([9.99e-5, 1e-3]),
        np.array([1e8 - 1, 1.0]),
        np.array([1e8, 1.0]),
        np.array([1.0, 1000.0]),
        np.array([1.0, 1000.0001]),
        np.array([1e16, 1.0]),
        np.array([1e23, 1e22]),
        np.array([123456789.123, 0.5]),
        np.array([0.1 + 0.2, 1 / 3, 2 / 3]),
        np.array([5e-324, 1.7976931348623157e308]),
        np.array([2.2250738585072014e-308, -5e-324]),
        np.array([1.0, 0.1, 0.01, 0.001, 1e-4]),
        np.arange(100) * 1.123456,
        np.arange(30).reshape(5, 6) / 7,
        np.array([4112, 4108, 4110, 65504, 65500], dtype=f16),
        np.array([0.1, 100], dtype=f16),
        np.array([1e-4, 0.01], dtype=f16),
        np.array([6e-8, 1.0], dtype=f16),
        np.array([3e10, 1.0], dtype=f32),
        np.array([1e-4, 0.01], dtype=f32),
        np.array([16777217.0, 0.5], dtype=f32),
        np.array([3.4028235e38, 1.4e-45], dtype=f32),
        np.arange(2000, dtype=np.int64),
        np.arange(2000, dtype=f64).reshape(40, 50) * 1.5,
        np.arange(24000, dtype=np.int32).reshape(20, 30, 40),
        np.arange(1001, dtype=np.int8),
        np.ones((2, 3, 4, 5), dtype=np.bool_),
        np.zeros((2, 0, 3)),
        np.zeros((0,), dtype=np.int32),
        np.array([np.iinfo(t).min for t in INTS[:1]] * 3, dtype=np.int8),
        np.array([-128, 127, 0], dtype=np.int8),
        np.array([-(2**63), 2**63 - 1], dtype=np.int64),
        np.array([True, False, True]),
        np.array(True),
        np.array(False),
        np.array(5),
        np.array(-7, dtype=np.int8),
        np.array(0.1),
        np.array(1e-5),
        np.array(1e16),
        np.array(1e15),
        np.array(-0.0),
        np.array(nan),
        np.array(-inf),
        np.array(1.5, dtype=f16),
        np.array(4112, dtype=f16),
        np.array(3e10, dtype=f32),
        np.array(1e23),
        np.array(123456.789, dtype=f32),
        np.full((3, 4), np.pi),
        np.full((2, 2, 2), -1e-7),
        np.linspace(-1, 1, 41),
        np.linspace(0, 1e6, 33),
        (np.arange(60) ** 3).astype(np.int64).reshape(3, 20),
        # Elements hidden by summarisation do not widen the columns.
        np.array([0] * 600 + [10**9] + [0] * 600, dtype=np.int64),
        np.array([0.5] * 600 + [np.nan, 1e-20] + [1.5] * 600),
        np.concatenate([np.full((3, 400), 2.0), np.full((3, 1), 1e9)],
                       axis=1).T.copy(),
    ]
    return cases


def random_floats(rng, dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    info = np.finfo(dtype)
    style = rng.integers(0, 10)
    with np.errstate(all="ignore"):
        if style == 0:
            v = rng.standard_normal(n)
        elif style == 1:
            v = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 12)
        elif style == 2:
            v = rng.integers(-1000, 1000, n).astype(np.float64)
        elif style == 3:
            v = np.round(rng.standard_normal(n) * 100, rng.integers(0, 5))
        elif style == 4:
            lo = np.log10(float(info.tiny)) - 2
            hi = np.log10(float(info.max))
            v = 10.0 ** rng.uniform(lo, hi, n) * rng.choice([-1, 1], n)
        elif style == 5:
            # Raw bit patterns: every class of value, NaNs and subnormals
            # included.
            bits = rng.integers(0, 2**info.bits, n, dtype=np.uint64)
            uint = {16: np.uint16, 32: np.uint32, 64: np.uint64}[info.bits]
            return bits.astype(uint).view(dtype).reshape(shape)
        elif style == 6:
            # Around the switch to scientific notation.
            v = rng.choice([1e-4, 9.9999e-5, 1.0001e-4, 1e8, 99999999.0,
                            1000.0, 1.0, 0.001, 1000.5, 0.5], n)
        elif style == 7:
            v = rng.uniform(0, 1, n) * rng.choice([1, 10, 1e3, 1e5, 1e7])
        elif style == 8:
            v = rng.integers(0, 5, n) * 0.25 + rng.integers(-3, 3)
        else:
            v = rng.standard_normal(n) * 1e-3
        v = v.astype(dtype)
        if rng.random() < 0.3 and n:
            special = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0],
                                 max(1, n // 10))
            v[rng.integers(0, n, len(special))] = special
    return v.reshape(shape)


def random_ints(rng, dtype, shape):
    info = np.iinfo(dtype)
    style = rng.integers(0, 4)
    if style == 0:
        v = rng.integers(-10, 10, shape)
    elif style == 1:
        v = rng.integers(info.min, info.max, shape, endpoint=True,
                         dtype=np.int64)
    elif style == 2:
        v = rng.choice([info.min, info.max, 0, -1, 1], shape)
    else:
        v = rng.integers(0, 10 ** rng.integers(1, 6), shape)
    return np.clip(v, info.min, info.max).astype(dtype)


def random_shape(rng, rank):
    kind = rng.integers(0, 10)
    if rank == 0:
        return ()
    if kind == 0:
        # Past the summarisation threshold.
        per_axis = int(np.ceil(1001 ** (1 / rank))) + rng.integers(0, 4)
        return tuple(int(per_axis + rng.integers(0, 3)) for _ in range(rank))
    if kind in (1, 2):
        # Long rows that wrap, at every nesting depth.
        return tuple([int(rng.integers(1, 3)) for _ in range(rank - 1)] +
                     [int(rng.integers(10, 60))])
    if kind == 3 and rng.random() < 0.5:
        dims = [int(rng.integers(1, 5)) for _ in range(rank)]
        dims[rng.integers(0, rank)] = 0
        return tuple(dims)
    return tuple(int(rng.integers(1, 7 if rank < 3 else 4))
                 for _ in range(rank))


def random_cases(rng, per_combination):
    cases = []
    for dtype in DTYPES:
        for rank in range(5):
            for _ in range(per_combination):
                shape = random_shape(rng, rank)
                if dtype in FLOATS:
                    a = random_floats(rng, dtype, shape)
                elif dtype is np.bool_:
                    a = rng.random(shape) < 0.5
                else:
                    a = random_ints(rng, dtype, shape)
                # (np.ascontiguousarray would turn 0-d arrays into 1-d.)
                cases.append(np.array(a, dtype=dtype, order="C"))
    return cases


def describe(a):
    """The exact values of a failing array, for reproduction."""
    flat = a.reshape(-1)
    if flat.size > 24:
        flat = np.concatenate([flat[:12], flat[-12:]])
    if a.dtype.kind == "f":
        vals = [float(x).hex() if np.isfinite(x) else str(x) for x in flat]
    else:
        vals = [str(x) for x in flat]
    return "dtype=%s shape=%s values(first/last)=[%s]" % (
        a.dtype, a.shape, ", ".join(vals))


def parse_output(text):
    """Maps each file name to what arrayio-print printed for it."""
    blocks, name, lines = {}, None, []
    for line in text.split("\n"):
        if line.startswith("== "):
            if name is not None:
                blocks[name] = "\n".join(lines).rstrip("\n")
            name, lines = line[3:], []
        else:
            lines.append(line)
    if name is not None:
        blocks[name] = "\n".join(lines).rstrip("\n")
    return blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--printer", required=True,
                        help="path of the arrayio-print executable")
    parser.add_argument("--workdir", required=True,
                        help="empty directory for the .npy files")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--per-combination", type=int, default=8,
                        help="random arrays per (dtype, rank) pair")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    cases = hand_picked() + random_cases(rng, args.per_combination)
    copies = os.path.join(args.workdir, "copies")
    os.makedirs(copies, exist_ok=True)

    files = []
    for i, a in enumerate(cases):
        path = os.path.join(args.workdir, "case%04d.npy" % i)
        version = [None, (2, 0), (3, 0)][i % 3] if i % 7 == 0 else None
        with open(path, "wb") as f:
            if version is None:
                np.save(f, a)
            else:
                np.lib.format.write_array(f, a, version=version)
        files.append(path)

    proc = subprocess.run([args.printer, "--copy-to=" + copies] + files,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
    printed = parse_output(proc.stdout)

    failures = []
    for path, a in zip(files, cases):
        expected = str(a)
        actual = printed.get(path)
        if actual != expected:
            diff = "\n".join(difflib.unified_diff(
                expected.split("\n"),
                (actual or "<nothing printed>").split("\n"),
                "numpy str()", "formatArray", lineterm=""))
            failures.append("%s: %s\n%s" % (os.path.basename(path),
                                             describe(a), diff))
            continue
        buf = io.BytesIO()
        np.save(buf, a)
        copy = os.path.join(copies, os.path.basename(path))
        written = open(copy, "rb").read() if os.path.exists(copy) else b""
        if written != buf.getvalue():
            failures.append("%s: %s\nwriteNpy's bytes differ from np.save's:"
                            "\n  numpy: %r\n  ours:  %r" % (
                                os.path.basename(path), describe(a),
                                buf.getvalue()[:128], written[:128]))

    print("compared %d arrays with NumPy %s (%d 0-d, %d summarised, %d on "
          "several lines, %d with nan or inf): %d mismatches"
          % (len(cases), np.__version__,
             sum(a.ndim == 0 for a in cases),
             sum(a.size > 1000 for a in cases),
             sum("\n" in str(a) for a in cases),
             sum(a.dtype.kind == "f" and not np.isfinite(a).all()
                 for a in cases),
             len(failures)))
    for failure in failures[:15]:
        print()
        print(failure)
    if len(failures) > 15:
        print("\n... and %d more" % (len(failures) - 15))
    if failures or proc.returncode != 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
