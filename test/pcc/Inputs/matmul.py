"""Runs linalg.matmul inside a pmap, with each operand transposed by the
indexing maps or not, into zeros and into a given C, on f32 and f64, and
compares the results bit for bit with NumPy's (the inputs are small
integers, so every product and sum is exact whatever the order).

usage: matmul.py PCC WORKDIR [PCC_RUN_OPTION...]
"""

import itertools
import os
import sys

import numpy as np
from pcc_run import run_pcc

DEVICES = 2
# (M, N, K): odd sizes, and one past the GEMM's cache blocks (K > 256,
# M > 96).
SHAPES = [(37, 19, 53), (130, 70, 300)]
DTYPES = {"f32": np.float32, "f64": np.float64}


def maps(transpose_a, transpose_b):
    a = "(k, m)" if transpose_a else "(m, k)"
    b = "(n, k)" if transpose_b else "(k, n)"
    return (f"indexing_maps = [affine_map<(m, n, k) -> {a}>, "
            f"affine_map<(m, n, k) -> {b}>, "
            f"affine_map<(m, n, k) -> (m, n)>]")


def cases():
    """(dtype, (M, N, K), transpose_a, transpose_b, accumulate) for every
    case the program computes."""
    for dtype, (ta, tb) in itertools.product(
            DTYPES, itertools.product((False, True), repeat=2)):
        yield dtype, SHAPES[0], ta, tb, ta == tb
    yield "f32", SHAPES[1], True, False, True
    yield "f64", SHAPES[1], False, True, False


def program_and_inputs(rng):
    """The program's text and its inputs, and NumPy's results."""
    args, body, yields, types, inputs, expected = [], [], [], [], [], []
    for index, (dtype, (m, n, k), ta, tb, acc) in enumerate(cases()):
        np_type = DTYPES[dtype]
        a_shape = (k, m) if ta else (m, k)
        b_shape = (n, k) if tb else (k, n)
        a = rng.integers(-4, 5, (DEVICES,) + a_shape).astype(np_type)
        b = rng.integers(-4, 5, (DEVICES,) + b_shape).astype(np_type)
        c = rng.integers(-4, 5, (DEVICES, m, n)).astype(np_type)
        operands = [("a", a), ("b", b)] + ([("c", c)] if acc else [])
        for name, value in operands:
            shape = "x".join(map(str, value.shape[1:]))
            args.append((f"%{name}{index}", f"%{name}{index}_d",
                         f"tensor<{DEVICES}x{shape}x{dtype}>",
                         f"tensor<{shape}x{dtype}>"))
            inputs.append(value)
        out = f"tensor<{m}x{n}x{dtype}>"
        if acc:
            init = f"%c{index}_d"
        else:
            body.append(f"%zero{index} = arith.constant 0.0 : {dtype}")
            body.append(f"%empty{index} = tensor.empty() : {out}")
            body.append(f"%init{index} = linalg.fill ins(%zero{index} : "
                        f"{dtype}) outs(%empty{index} : {out}) -> {out}")
            init = f"%init{index}"
        a_type, b_type = args[-3 if acc else -2][3], args[-2 if acc else -1][3]
        body.append(f"%p{index} = linalg.matmul {maps(ta, tb)} "
                    f"ins(%a{index}_d, %b{index}_d : {a_type}, {b_type}) "
                    f"outs({init} : {out}) -> {out}")
        yields.append((f"%p{index}", out))
        types.append(f"tensor<{DEVICES}x{m}x{n}x{dtype}>")
        at = np.swapaxes(a, 1, 2) if ta else a
        bt = np.swapaxes(b, 1, 2) if tb else b
        expected.append(at @ bt + (c if acc else 0))
    params = ", ".join(f"{outer}: {t}" for outer, _, t, _ in args)
    pmap_args = ", ".join(f"{inner} = {outer} : {t}"
                          for outer, inner, t, _ in args)
    results = ", ".join(types)
    lines = [f"func.func @main({params}) -> ({results}) {{",
             f'  %r:{len(types)} = spmd.pmap "i" ({pmap_args}) -> ({results}) {{']
    lines += [f"    {line}" for line in body]
    lines.append(f"    spmd.yield {', '.join(v for v, _ in yields)} : "
                 f"{', '.join(t for _, t in yields)}")
    lines.append("  }")
    lines.append(f"  return {', '.join(f'%r#{i}' for i in range(len(types)))}"
                 f" : {results}")
    lines.append("}")
    return "\n".join(lines) + "\n", inputs, expected


def main():
    pcc, workdir = sys.argv[1:3]
    options = sys.argv[3:]
    os.makedirs(workdir, exist_ok=True)
    text, inputs, expected = program_and_inputs(np.random.default_rng(7))
    program = os.path.join(workdir, "matmul.mlir")
    with open(program, "w") as handle:
        handle.write(text)
    got = run_pcc(pcc, program, inputs, workdir, len(expected), options)
    for case, g, e in zip(cases(), got, expected):
        if g.dtype != e.dtype or not np.array_equal(g, e):
            print(f"mismatch in {case}:\n{g}\nexpected:\n{e}")
            return 1
    print(f"{len(expected)} matmuls match NumPy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
