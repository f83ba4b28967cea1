"""Every op of the math dialect, elementwise on f32 and f64 tensors (and the
integer ones on i32), in one generated program, checked against NumPy and
Python's math module.

usage: math_all.py PCC WORKDIR
"""

import math
import os
import sys

import numpy as np
from pcc_run import compare, run_pcc

# op: (oracle on float64 values, input range); float results.
UNARY = {
    "absf": (np.abs, (-4, 4)),
    "ceil": (np.ceil, (-4, 4)),
    "floor": (np.floor, (-4, 4)),
    # math.round rounds half away from zero, unlike np.round.
    "round": (lambda v: np.copysign(np.floor(np.abs(v) + 0.5), v), (-4, 4)),
    "roundeven": (np.rint, (-4, 4)),
    "trunc": (np.trunc, (-4, 4)),
    "exp": (np.exp, (-4, 4)),
    "exp2": (np.exp2, (-4, 4)),
    "expm1": (np.expm1, (-1, 1)),
    "log": (np.log, (0.01, 8)),
    "log10": (np.log10, (0.01, 8)),
    "log1p": (np.log1p, (-0.5, 1e-3)),
    "log2": (np.log2, (0.01, 8)),
    "sqrt": (np.sqrt, (0, 8)),
    "cbrt": (np.cbrt, (-8, 8)),
    "rsqrt": (lambda v: 1 / np.sqrt(v), (0.01, 8)),
    "sin": (np.sin, (-4, 4)),
    "cos": (np.cos, (-4, 4)),
    "tan": (np.tan, (-1, 1)),
    "asin": (np.arcsin, (-1, 1)),
    "acos": (np.arccos, (-1, 1)),
    "atan": (np.arctan, (-4, 4)),
    "sinh": (np.sinh, (-3, 3)),
    "cosh": (np.cosh, (-3, 3)),
    "tanh": (np.tanh, (-3, 3)),
    "asinh": (np.arcsinh, (-4, 4)),
    "acosh": (np.arccosh, (1, 8)),
    "atanh": (np.arctanh, (-0.9, 0.9)),
    "erf": (np.vectorize(math.erf), (-2, 2)),
    "erfc": (np.vectorize(math.erfc), (-2, 2)),
}
# Ops whose result near 0 is about their argument: on tiny arguments, where
# a formula such as exp(x) - 1 loses every digit, each must keep them.
TINY = {
    "expm1": np.expm1, "log1p": np.log1p, "sin": np.sin, "tan": np.tan,
    "asin": np.arcsin, "atan": np.arctan, "sinh": np.sinh, "tanh": np.tanh,
    "asinh": np.arcsinh, "atanh": np.arctanh, "erf": np.vectorize(math.erf),
}
TINY_VALUES = [s * m for m in (1e-30, 1e-20, 1e-10, 1e-7, 1e-5, 1e-3, 3e-2)
               for s in (1, -1)] + [0.0, -0.0]
BINARY = {
    "powf": (np.power, (0.1, 4)),
    "atan2": (np.arctan2, (-4, 4)),
    "copysign": (np.copysign, (-4, 4)),
}
# Classifications, on values that include every class.
CLASSES = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
           "isnormal": None}
INTEGER = {
    "absi": lambda v: np.abs(v),
    "ctpop": lambda v: np.array([bin(int(x) & 0xFFFFFFFF).count("1")
                                 for x in v], np.int32),
    "ctlz": lambda v: np.array([32 - (int(x) & 0xFFFFFFFF).bit_length()
                                for x in v], np.int32),
    "cttz": lambda v: np.array([32 if int(x) & 0xFFFFFFFF == 0 else
                                ((int(x) & 0xFFFFFFFF) & -(int(x) & 0xFFFFFFFF)
                                 ).bit_length() - 1 for x in v], np.int32),
}
N = 16


def main():
    pcc, workdir = sys.argv[1:]
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(5)
    inputs, lines, results, expected = [], [], [], []

    def argument(array):
        inputs.append(array)
        return f"%a{len(inputs) - 1}"

    def result(name, type_, want, rtol):
        results.append((name, type_))
        expected.append((want, rtol))

    for ftype, dtype, rtol in (("f32", np.float32, 2e-6), ("f64", np.float64,
                                                             1e-13)):
        t = f"tensor<{N}x{ftype}>"
        for op, (oracle, (lo, hi)) in UNARY.items():
            x = rng.uniform(lo, hi, N).astype(dtype)
            x[:3] = [lo, hi, (lo + hi) / 2]
            if op in ("round", "roundeven", "trunc", "ceil", "floor"):
                x[3:7] = [2.5, -2.5, 0.5, -1.5]
            a = argument(x)
            lines.append(f"%{op}_{ftype} = math.{op} {a} : {t}")
            result(f"{op}_{ftype}", t, oracle(x.astype(np.float64)).astype(
                dtype), rtol)
        # expm1 up to where it overflows, and at inf, -inf and -0 (compare
        # takes NaN for a mismatch).
        top = {np.float32: 88.7, np.float64: 709.7}[dtype]
        edge = np.array([top, top - 1, top - 3, -top, 30.0, -30.0, 1.0, -1.0,
                         np.inf, -np.inf, 50.0, -0.0, 0.0, 5.0, -5.0,
                         top - 0.5], dtype)
        a = argument(edge)
        lines.append(f"%expm1_edge_{ftype} = math.expm1 {a} : {t}")
        result(f"expm1_edge_{ftype}", t,
               np.expm1(edge.astype(np.float64)).astype(dtype), rtol)
        tiny = np.array(TINY_VALUES, dtype)
        a = argument(tiny)
        for op, oracle in TINY.items():
            lines.append(f"%{op}_tiny_{ftype} = math.{op} {a} : {t}")
            result(f"{op}_tiny_{ftype}", t,
                   oracle(tiny.astype(np.float64)).astype(dtype), rtol)
        for op, (oracle, (lo, hi)) in BINARY.items():
            x = rng.uniform(lo, hi, N).astype(dtype)
            y = rng.uniform(lo, hi, N).astype(dtype)
            a, b = argument(x), argument(y)
            lines.append(f"%{op}_{ftype} = math.{op} {a}, {b} : {t}")
            result(f"{op}_{ftype}", t, oracle(x.astype(np.float64),
                                              y.astype(np.float64)).astype(
                                                  dtype), rtol)
        info = np.finfo(dtype)
        special = np.array([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan,
                            info.tiny, -info.tiny, info.tiny / 2,
                            info.max, -info.max, 3.0, -7.0, 1e-30, 5.0],
                           dtype)
        a = argument(special)
        for op, oracle in CLASSES.items():
            if oracle is None:
                want = np.array([bool(np.isfinite(v) and abs(v) >= info.tiny)
                                 for v in special])
            else:
                want = oracle(special)
            lines.append(f"%{op}_{ftype} = math.{op} {a} : {t}")
            result(f"{op}_{ftype}", f"tensor<{N}xi1>", want, 0)
        n = rng.integers(-3, 4, N).astype(np.int32)
        e = argument(n)
        x = rng.uniform(0.5, 2, N).astype(dtype)
        a = argument(x)
        lines.append(f"%fpowi_{ftype} = math.fpowi {a}, {e} : {t}, "
                     f"tensor<{N}xi32>")
        result(f"fpowi_{ftype}", t,
               (x.astype(np.float64) ** n).astype(dtype), rtol * 4)

    ti = f"tensor<{N}xi32>"
    v = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    v[:3] = [0, -1, -2**31]
    a = argument(v)
    for op, oracle in INTEGER.items():
        lines.append(f"%{op} = math.{op} {a} : {ti}")
        result(op, ti, oracle(v).astype(np.int32), 0)
    base = rng.integers(-4, 5, N).astype(np.int32)
    power = rng.integers(0, 8, N).astype(np.int32)
    b, p = argument(base), argument(power)
    lines.append(f"%ipowi = math.ipowi {b}, {p} : {ti}")
    result("ipowi", ti, (base.astype(np.int64) ** power).astype(np.int32), 0)

    params = ", ".join(f"%a{i}: tensor<{N}x{ {'float32': 'f32', 'float64': 'f64', 'int32': 'i32'}[str(x.dtype)] }>"
                       for i, x in enumerate(inputs))
    types = ", ".join(t for _, t in results)
    names = ", ".join(f"%{n}" for n, _ in results)
    program = os.path.join(workdir, "math_all.mlir")
    with open(program, "w") as f:
        f.write(f"func.func @main({params}) -> ({types}) {{\n")
        for line in lines:
            f.write(f"  {line}\n")
        f.write(f"  return {names} : {types}\n}}\n")
    got = run_pcc(pcc, program, inputs, workdir, len(results))
    pairs = []
    for (name, _), value, (want, rtol) in zip(results, got, expected):
        pairs.append((value, want, rtol, 0))
    status = compare("every math op matches NumPy", pairs)
    if status:
        for (name, _), value, (want, rtol) in zip(results, got, expected):
            if not np.allclose(value, want, rtol=rtol, atol=0, equal_nan=True):
                print(f"first mismatch in {name}: {value} vs {want}")
                break
    return status


if __name__ == "__main__":
    sys.exit(main())
