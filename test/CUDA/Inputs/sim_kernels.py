"""Every kind of kernel the cuda backend generates, on odd shapes, checked
against NumPy: elementwise parallel loops, reductions (the cooperative
block-reduction kernel for f32/f64/i32/i64 reductions of at least 64
elements, plain per-output loops below that and for f16/bf16), matmuls (the
16x16 tiled shared-memory kernel for f32/f64, parallel loops for f16/bf16)
and data movement (transpose, broadcast, extract_slice/insert_slice, copies
of arguments), in f16, bf16, f32 and f64 (reductions also in i32 and i64).

For each case it writes a plain function (no spmd.pmap: one device) and its
inputs as .npy files, runs `PCC run PROGRAM ARGS... --backend=BACKEND
--save-results=DIR`, and compares DIR/result*.npy with a reference that
NumPy computes in float64 from the same inputs (already rounded to the
element type), within a tolerance derived from the element type's unit
roundoff and the size of the computation. Copies and max reductions are
exact and compared bit for bit.

PCC is the driver, or anything that takes its `run` command line
(test/Inputs/pcc_via.py). Prints one line per failing case, then
`sim kernels: N passed, M failed`; exit status 1 if any failed.

usage: sim_kernels.py PCC [--backend=cuda-sim] [--filter SUBSTRING]
                          [--workdir DIR] [--jobs N] [--list]
"""

import argparse
import ast
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

DTYPES = ("f16", "bf16", "f32", "f64")
# Bits of significand (with the implicit one) and unit roundoff.
PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
UNIT = {name: 2.0 ** -bits for name, bits in PRECISION.items()}
NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
         "i32": np.int32, "i64": np.int64}
INTS = ("i32", "i64")
# -inf, the identity of arith.maximumf, as the hex literal MLIR takes.
NEG_INF = {"f16": "0xFC00", "bf16": "0xFF80", "f32": "0xFF800000",
           "f64": "0xFFF0000000000000"}
# Elementwise tolerances also allow for results in the subnormal range.
TINY = {"f16": 2.0 ** -24, "bf16": 2.0 ** -133, "f32": 2.0 ** -149,
        "f64": 2.0 ** -1074}


# --- .npy files, bf16 included ---------------------------------------------
#
# pcc reads and writes bf16 with the descr 'bfloat16' that ml_dtypes uses
# (docs/guide.md); NumPy alone has no such dtype, so those files are written
# and read here by hand, as raw little-endian 16-bit patterns.

def bf16_round(values):
    """float64 values -> the nearest bfloat16 values (ties to even), as
    float64. Goes through float32 first, which is exact for the data here."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


def to_dtype(values, elem):
    """Rounds float64 values to `elem`; returns them as float64."""
    values = np.asarray(values, np.float64)
    if elem == "bf16":
        return bf16_round(values)
    return values.astype(NUMPY[elem]).astype(np.float64)


def save_npy(path, values, elem):
    if elem in INTS:
        np.save(path, np.asarray(values).astype(NUMPY[elem]))
        return
    values = np.asarray(values, np.float64)
    if elem != "bf16":
        np.save(path, values.astype(NUMPY[elem]))
        return
    bits = (np.ascontiguousarray(values, np.float32).view(np.uint32)
            >> 16).astype("<u2")
    header = ("{'descr': 'bfloat16', 'fortran_order': False, 'shape': %r, }"
              % (tuple(values.shape),))
    # Magic, version 1.0, header length; the header padded to 64 bytes.
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as handle:
        handle.write(b"\x93NUMPY\x01\x00")
        handle.write(len(header).to_bytes(2, "little"))
        handle.write(header.encode("latin1"))
        handle.write(bits.tobytes())


def load_npy(path):
    """Returns (values, descr, shape) of an .npy file: floats as float64,
    integers as they are."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not an .npy file")
    major = data[6]
    if major == 1:
        length, start = int.from_bytes(data[8:10], "little"), 10
    else:
        length, start = int.from_bytes(data[8:12], "little"), 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    shape = tuple(header["shape"])
    body = data[start + length:]
    descr = header["descr"]
    count = int(np.prod(shape, dtype=np.int64))
    if descr == "bfloat16":
        bits = np.frombuffer(body, "<u2", count).astype(np.uint32) << 16
        values = bits.view(np.float32).astype(np.float64)
    else:
        values = np.frombuffer(body, np.dtype(descr), count)
        if values.dtype.kind == "f":
            values = values.astype(np.float64)
    order = "F" if header["fortran_order"] else "C"
    return values.reshape(shape, order=order), descr, shape


DESCR = {"f16": ("<f2", "|f2", "=f2"), "bf16": ("bfloat16",),
         "f32": ("<f4",), "f64": ("<f8",), "i32": ("<i4",), "i64": ("<i8",)}


# --- cases ------------------------------------------------------------------

class Result:
    """One expected result: the reference (float64, or int64 for integer
    types), the allowed absolute difference (an array or a scalar; 0 means
    exactly) and the element type."""

    def __init__(self, reference, tolerance, elem):
        self.reference = np.asarray(
            reference, np.int64 if elem in INTS else np.float64)
        self.tolerance = np.broadcast_to(
            np.asarray(tolerance, np.float64), self.reference.shape)
        self.elem = elem


class Case:
    def __init__(self, name, program, inputs, results):
        self.name, self.program = name, program
        self.inputs = inputs      # [(values as float64, elem)]
        self.results = results    # [Result]


def rng_for(name):
    """A generator of its own per case, so that --filter keeps the data."""
    return np.random.default_rng([20260511, zlib.crc32(name.encode())])


def tensor(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def normal(rng, shape, elem, scale=1.0):
    return to_dtype(rng.standard_normal(shape) * scale, elem)


def integers(rng, shape, elem, bound):
    """Small integers, exact in every type: f16/bf16 accumulations of them
    stay exact while the partial sums stay small, so a dropped or doubled
    term shows instead of drowning in rounding."""
    return to_dtype(rng.integers(-bound, bound, size=shape, endpoint=True),
                    elem)


def sequential_slack(terms, axis, elem):
    """For sums of integer-valued terms (f16/bf16 cases): rounding happens
    only where a partial sum passes 2^precision; bounds the error of summing
    along `axis` in order by half an ulp of each such partial sum, doubled
    for reorderings. Zero while all partial sums are exact."""
    partial = np.abs(np.cumsum(terms, axis=axis))
    limit = 2.0 ** PRECISION[elem]
    with np.errstate(divide="ignore"):
        ulp = np.where(partial > limit,
                       2.0 ** (np.floor(np.log2(np.maximum(partial, 1)))
                               - PRECISION[elem] + 1), 0.0)
    return ulp.sum(axis=axis)


def float_sum_slack(terms, axis, elem):
    """For sums of random terms (f32/f64) in any order: 8 u sqrt(n) |x|_2,
    far above the rounding of a correct sum (about u n sigma / sqrt(6) for
    a serial one), far below a dropped or doubled term."""
    n = terms.shape[axis] if np.ndim(terms) else 1
    norm = np.sqrt(np.sum(np.square(terms), axis=axis))
    return 8 * UNIT[elem] * np.sqrt(n) * norm


# Elementwise: a*b+c as a linalg.generic and (a-b)*c as arith on tensors.

def elementwise_case(elem, size):
    name = f"elementwise-{elem}-{size}"
    rng = rng_for(name)
    t = tensor((size,), elem)
    program = f"""
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: {t}, %b: {t}, %c: {t}) -> ({t}, {t}) {{
  %init = tensor.empty() : {t}
  %r0 = linalg.generic {{indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel"]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%init : {t}) {{
    ^bb0(%x: {elem}, %y: {elem}, %z: {elem}, %o: {elem}):
      %m = arith.mulf %x, %y : {elem}
      %s = arith.addf %m, %z : {elem}
      linalg.yield %s : {elem}
  }} -> {t}
  %d = arith.subf %a, %b : {t}
  %r1 = arith.mulf %d, %c : {t}
  return %r0, %r1 : {t}, {t}
}}
"""
    a, b, c = (normal(rng, (size,), elem, 2.0) for _ in range(3))
    u, tiny = UNIT[elem], TINY[elem]
    # Two roundings (or one, fused): u|ab| + u|ab+c| at most, doubled.
    fma = a * b + c
    r0 = Result(fma, 2 * u * (np.abs(a * b) + np.abs(fma)) + tiny, elem)
    # a-b rounds by u|a-b|, the product by u|(a-b)c|.
    prod = (a - b) * c
    r1 = Result(prod, 3 * u * np.abs(prod) + tiny, elem)
    return Case(name, program, [(a, elem), (b, elem), (c, elem)], [r0, r1])


def broadcast_elementwise_case(elem, rows, cols):
    """A generic whose operands broadcast along either dimension."""
    name = f"elementwise-broadcast-{elem}-{rows}x{cols}"
    rng = rng_for(name)
    t2, tr, tc = (tensor((rows, cols), elem), tensor((cols,), elem),
                  tensor((rows,), elem))
    program = f"""
func.func @main(%a: {t2}, %v: {tr}, %w: {tc}) -> {t2} {{
  %init = tensor.empty() : {t2}
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                       affine_map<(i, j) -> (j)>,
                                       affine_map<(i, j) -> (i)>,
                                       affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%a, %v, %w : {t2}, {tr}, {tc}) outs(%init : {t2}) {{
    ^bb0(%x: {elem}, %y: {elem}, %z: {elem}, %o: {elem}):
      %m = arith.mulf %x, %y : {elem}
      %s = arith.addf %m, %z : {elem}
      linalg.yield %s : {elem}
  }} -> {t2}
  return %r : {t2}
}}
"""
    a = normal(rng, (rows, cols), elem, 2.0)
    v = normal(rng, (cols,), elem, 2.0)
    w = normal(rng, (rows,), elem, 2.0)
    ab = a * v[None, :]
    fma = ab + w[:, None]
    tol = 2 * UNIT[elem] * (np.abs(ab) + np.abs(fma)) + TINY[elem]
    return Case(name, program, [(a, elem), (v, elem), (w, elem)],
                [Result(fma, tol, elem)])


# Reductions: over the last dimension (rows), the first (columns), both (a
# 0-d result), and the rows again into a bias argument (the kernel folds its
# total into what the output holds).

def reduce_op(value, source, elem, in_type, out_type, dims, init, combine):
    return f"""
  %{value} = linalg.reduce ins(%{source} : {in_type}) outs(%{init} : {out_type})
      dimensions = {dims}
    (%in: {elem}, %acc: {elem}) {{
      %v = arith.{combine} %in, %acc : {elem}
      linalg.yield %v : {elem}
    }}"""


def reduction_program(elem, rows, n, cols, combine, identity):
    """Four linalg.reduce of %x (rows x n) and %y (n x cols) with `combine`:
    over the last axis, the first, both, and the last into %bias."""
    tx, ty = tensor((rows, n), elem), tensor((n, cols), elem)
    tr, tc, t0 = tensor((rows,), elem), tensor((cols,), elem), tensor((), elem)
    body = "".join([
        reduce_op("rows", "x", elem, tx, tr, "[1]", "zr", combine),
        reduce_op("cols", "y", elem, ty, tc, "[0]", "zc", combine),
        reduce_op("all", "x", elem, tx, t0, "[0, 1]", "z0", combine),
        reduce_op("biased", "x", elem, tx, tr, "[1]", "bias", combine)])
    return f"""
func.func @main(%x: {tx}, %y: {ty}, %bias: {tr})
    -> ({tr}, {tc}, {t0}, {tr}) {{
  %identity = arith.constant {identity} : {elem}
  %er = tensor.empty() : {tr}
  %zr = linalg.fill ins(%identity : {elem}) outs(%er : {tr}) -> {tr}
  %ec = tensor.empty() : {tc}
  %zc = linalg.fill ins(%identity : {elem}) outs(%ec : {tc}) -> {tc}
  %e0 = tensor.empty() : {t0}
  %z0 = linalg.fill ins(%identity : {elem}) outs(%e0 : {t0}) -> {t0}{body}
  return %rows, %cols, %all, %biased : {tr}, {tc}, {t0}, {tr}
}}
"""


def reduction_case(op, elem, rows, n, cols):
    name = f"reduce-{op}-{elem}-{rows}x{n}-{n}x{cols}"
    rng = rng_for(name)
    combine = "addf" if op == "sum" else "maximumf"
    identity = "0.0" if op == "sum" else NEG_INF[elem]
    program = reduction_program(elem, rows, n, cols, combine, identity)
    if op == "max":
        x = normal(rng, (rows, n), elem, 4.0)
        y = normal(rng, (n, cols), elem, 4.0)
        bias = normal(rng, (rows,), elem, 4.0)
        results = [Result(x.max(axis=1), 0, elem),
                   Result(y.max(axis=0), 0, elem),
                   Result(x.max(), 0, elem),
                   Result(np.maximum(x.max(axis=1), bias), 0, elem)]
        return Case(name, program, [(x, elem), (y, elem), (bias, elem)],
                    results)
    if elem in ("f16", "bf16"):
        bound = 3 if elem == "f16" else 1
        x = integers(rng, (rows, n), elem, bound)
        y = integers(rng, (n, cols), elem, bound)
        bias = integers(rng, (rows,), elem, 8)

        def slack(terms, axis):
            # Plus the rounding of the result itself.
            total = np.sum(terms, axis=axis)
            return (sequential_slack(terms, axis, elem)
                    + UNIT[elem] * np.abs(total))
        with_bias = np.concatenate([bias[:, None], x], axis=1)
        tolerances = [slack(x, 1), slack(y, 0), slack(x.reshape(-1), 0),
                      slack(with_bias, 1)]
    else:
        x = normal(rng, (rows, n), elem)
        y = normal(rng, (n, cols), elem)
        bias = normal(rng, (rows,), elem)
        with_bias = np.concatenate([bias[:, None], x], axis=1)
        tolerances = [float_sum_slack(x, 1, elem), float_sum_slack(y, 0, elem),
                      float_sum_slack(x.reshape(-1), 0, elem),
                      float_sum_slack(with_bias, 1, elem)]
    references = [x.sum(axis=1), y.sum(axis=0), x.sum(), with_bias.sum(axis=1)]
    results = [Result(ref, tol, elem)
               for ref, tol in zip(references, tolerances)]
    return Case(name, program, [(x, elem), (y, elem), (bias, elem)], results)


def int_reduction_case(op, elem, rows, n, cols):
    """The same programs on integers (arith.addi, arith.maxsi), which the
    block reduction also takes; i64 values use their high halves, which its
    shuffles move separately. Compared exactly (no sum can overflow)."""
    name = f"reduce-{op}-{elem}-{rows}x{n}-{n}x{cols}"
    rng = rng_for(name)
    combine = "addi" if op == "sum" else "maxsi"
    identity = 0 if op == "sum" else -2 ** (int(elem[1:]) - 1)
    program = reduction_program(elem, rows, n, cols, combine, identity)
    bound = 2 ** 15 if elem == "i32" else 2 ** 40
    x, y = (rng.integers(-bound, bound, size=shape, endpoint=True)
            for shape in ((rows, n), (n, cols)))
    bias = rng.integers(-bound, bound, size=(rows,), endpoint=True)
    if op == "sum":
        references = [x.sum(axis=1), y.sum(axis=0), x.sum(),
                      x.sum(axis=1) + bias]
    else:
        references = [x.max(axis=1), y.max(axis=0), x.max(),
                      np.maximum(x.max(axis=1), bias)]
    return Case(name, program, [(x, elem), (y, elem), (bias, elem)],
                [Result(ref, 0, elem) for ref in references])


# Matmuls: into zeros and accumulating into an argument.

def matmul_case(elem, m, k, n, batch=None):
    lead = () if batch is None else (batch,)
    op = "matmul" if batch is None else "batch_matmul"
    shape_name = "x".join(map(str, lead + (m, k, n)))
    name = f"{op}-{elem}-{shape_name}"
    rng = rng_for(name)
    ta, tb, tc = (tensor(lead + (m, k), elem), tensor(lead + (k, n), elem),
                  tensor(lead + (m, n), elem))
    program = f"""
func.func @main(%a: {ta}, %b: {tb}, %c: {tc}) -> ({tc}, {tc}) {{
  %zero = arith.constant 0.0 : {elem}
  %init = tensor.empty() : {tc}
  %acc = linalg.fill ins(%zero : {elem}) outs(%init : {tc}) -> {tc}
  %r0 = linalg.{op} ins(%a, %b : {ta}, {tb}) outs(%acc : {tc}) -> {tc}
  %r1 = linalg.{op} ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) -> {tc}
  return %r0, %r1 : {tc}, {tc}
}}
"""
    if elem in ("f16", "bf16"):
        a = integers(rng, lead + (m, k), elem, 2)
        b = integers(rng, lead + (k, n), elem, 2)
        c = integers(rng, lead + (m, n), elem, 8)
    else:
        a = normal(rng, lead + (m, k), elem)
        b = normal(rng, lead + (k, n), elem)
        c = normal(rng, lead + (m, n), elem)
    # terms[..., i, p, j] = a[..., i, p] * b[..., p, j]
    terms = a[..., :, :, None] * b[..., None, :, :]
    with_c = np.concatenate([c[..., :, None, :], terms], axis=-2)
    results = []
    for t in (terms, with_c):
        reference = t.sum(axis=-2)
        if elem in ("f16", "bf16"):
            tol = (sequential_slack(t, -2, elem)
                   + UNIT[elem] * np.abs(reference))
        else:
            tol = float_sum_slack(t, -2, elem)
        results.append(Result(reference, tol, elem))
    return Case(name, program, [(a, elem), (b, elem), (c, elem)], results)


# Data movement, compared bit for bit.

def copies_case(elem, m, n, cube):
    name = f"copies-{elem}-{m}x{n}-{'x'.join(map(str, cube))}"
    rng = rng_for(name)
    p, q, r = cube
    tx, tz = tensor((m, n), elem), tensor(cube, elem)
    t_xt = tensor((n, m), elem)
    t_zt = tensor((r, p, q), elem)
    inner = (m - 3, n - 4)
    t_in = tensor(inner, elem)
    strided = ((m - 1) // 2 + 1, (n - 2) // 3 + 1)
    t_st = tensor(strided, elem)
    big = (m + 2, n + 3)
    t_big = tensor(big, elem)
    t_bc = tensor((3, m, n), elem)
    t_face = tensor((q, r), elem)
    program = f"""
func.func @main(%x: {tx}, %z: {tz})
    -> ({t_xt}, {t_zt}, {t_in}, {t_st}, {t_big}, {t_bc}, {t_face}, {tx}) {{
  %e_xt = tensor.empty() : {t_xt}
  %xt = linalg.transpose ins(%x : {tx}) outs(%e_xt : {t_xt}) permutation = [1, 0]
  %e_zt = tensor.empty() : {t_zt}
  %zt = linalg.transpose ins(%z : {tz}) outs(%e_zt : {t_zt}) permutation = [2, 0, 1]
  %in = tensor.extract_slice %x[1, 2] [{inner[0]}, {inner[1]}] [1, 1] : {tx} to {t_in}
  %st = tensor.extract_slice %x[0, 1] [{strided[0]}, {strided[1]}] [2, 3] : {tx} to {t_st}
  %zero = arith.constant 0.0 : {elem}
  %e_big = tensor.empty() : {t_big}
  %z_big = linalg.fill ins(%zero : {elem}) outs(%e_big : {t_big}) -> {t_big}
  %big = tensor.insert_slice %in into %z_big[3, 2] [{inner[0]}, {inner[1]}] [1, 1] : {t_in} into {t_big}
  %e_bc = tensor.empty() : {t_bc}
  %bc = linalg.broadcast ins(%x : {tx}) outs(%e_bc : {t_bc}) dimensions = [0]
  %face = tensor.extract_slice %z[{p - 1}, 0, 0] [1, {q}, {r}] [1, 1, 1] : {tz} to {t_face}
  return %xt, %zt, %in, %st, %big, %bc, %face, %x
      : {t_xt}, {t_zt}, {t_in}, {t_st}, {t_big}, {t_bc}, {t_face}, {tx}
}}
"""
    x = normal(rng, (m, n), elem, 4.0)
    z = normal(rng, cube, elem, 4.0)
    big_ref = np.zeros(big)
    big_ref[3:3 + inner[0], 2:2 + inner[1]] = x[1:1 + inner[0], 2:2 + inner[1]]
    references = [x.T, z.transpose(2, 0, 1),
                  x[1:1 + inner[0], 2:2 + inner[1]], x[0::2, 1::3], big_ref,
                  np.broadcast_to(x, (3, m, n)), z[p - 1], x]
    return Case(name, program, [(x, elem), (z, elem)],
                [Result(ref, 0, elem) for ref in references])


def all_cases():
    cases = []
    for elem in DTYPES:
        for size in (1, 31, 33, 255, 257, 1000):
            cases.append(elementwise_case(elem, size))
        for rows, cols in ((1, 1), (17, 33), (33, 257)):
            cases.append(broadcast_elementwise_case(elem, rows, cols))
    # (rows, reduction size, columns): below 64 the per-output loops, from
    # 64 the block reduction (f32/f64); 255 and 257 straddle the 256
    # threads of a block, 1000 and 4096 give each thread several elements,
    # 129 rows many blocks.
    shapes = ((3, 1, 5), (3, 7, 5), (3, 63, 5), (3, 64, 5), (3, 255, 7),
              (3, 257, 7), (5, 1000, 3), (2, 4096, 3), (129, 257, 65))
    for op in ("sum", "max"):
        for elem in DTYPES:
            for rows, n, cols in shapes:
                cases.append(reduction_case(op, elem, rows, n, cols))
        for elem in INTS:
            for rows, n, cols in ((3, 7, 5), (3, 64, 5), (3, 257, 7),
                                  (2, 4096, 3), (129, 257, 65)):
                cases.append(int_reduction_case(op, elem, rows, n, cols))
    for elem in DTYPES:
        for m, k, n in ((1, 1, 1), (17, 33, 5), (100, 100, 100),
                        (16, 16, 16), (33, 17, 65)):
            cases.append(matmul_case(elem, m, k, n))
        for batch, m, k, n in ((3, 17, 33, 5), (2, 16, 16, 16)):
            cases.append(matmul_case(elem, m, k, n, batch))
    for elem in DTYPES:
        cases.append(copies_case(elem, 17, 33, (3, 5, 7)))
        cases.append(copies_case(elem, 33, 257, (2, 31, 65)))
    return cases


# --- running and comparing --------------------------------------------------

def describe_mismatch(index, got, result):
    if result.elem in INTS:
        diff = np.abs(got.astype(np.float64)
                      - result.reference.astype(np.float64))
    else:
        diff = np.abs(got - result.reference)
    bad = ~(diff <= result.tolerance)
    if result.tolerance.size and not result.tolerance.any():
        # Bit for bit (NaN never appears in these cases).
        bad = got != result.reference
    if not bad.any():
        return None
    where = np.argwhere(bad)
    first = tuple(int(i) for i in where[0]) if got.ndim else ()
    # The largest difference among the wrong elements, NaN counting most.
    excess = np.where(bad, np.where(np.isnan(diff), np.inf, diff), -1.0)
    worst = (tuple(int(i) for i in np.unravel_index(np.argmax(excess),
                                                     got.shape))
             if got.ndim else ())
    return (f"result{index}: {int(bad.sum())} of {got.size} elements wrong;"
            f" first at {list(first)}: got {got[first]!r} expected"
            f" {result.reference[first]!r} (tolerance"
            f" {result.tolerance[first]:.3g}); worst at {list(worst)}:"
            f" got {got[worst]!r} expected {result.reference[worst]!r}")


def run_case(case, pcc, backend, workdir):
    """Returns None on success, else a line saying what went wrong."""
    directory = os.path.join(workdir, case.name)
    os.makedirs(directory, exist_ok=True)
    program = os.path.join(directory, "program.mlir")
    with open(program, "w") as handle:
        handle.write(case.program)
    paths = []
    for index, (values, elem) in enumerate(case.inputs):
        paths.append(os.path.join(directory, f"arg{index}.npy"))
        save_npy(paths[-1], values, elem)
    out = os.path.join(directory, "out")
    shutil.rmtree(out, ignore_errors=True)
    command = [pcc, "run", program, *paths, f"--backend={backend}",
               f"--save-results={out}"]
    repro = " ".join(command)
    try:
        proc = subprocess.run(command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return f"FAIL {case.name}: timed out after 300 s\n  run: {repro}"
    if proc.returncode != 0:
        error = proc.stderr.strip().replace("\n", "\n    ")
        return (f"FAIL {case.name}: exit status {proc.returncode}\n"
                f"    {error}\n  run: {repro}")
    problems = []
    for index, result in enumerate(case.results):
        path = os.path.join(out, f"result{index}.npy")
        if not os.path.exists(path):
            problems.append(f"result{index}: missing")
            continue
        got, descr, shape = load_npy(path)
        if descr not in DESCR[result.elem]:
            problems.append(f"result{index}: dtype {descr}, expected "
                            f"{result.elem}")
            continue
        if shape != result.reference.shape:
            problems.append(f"result{index}: shape {shape}, expected "
                            f"{result.reference.shape}")
            continue
        message = describe_mismatch(index, got, result)
        if message:
            problems.append(message)
    if problems:
        return (f"FAIL {case.name}: " + "\n    ".join(problems)
                + f"\n  run: {repro}")
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pcc", nargs="?", default=os.environ.get("PCC"))
    parser.add_argument("--backend", default="cuda-sim")
    parser.add_argument("--filter", default="",
                        help="only cases whose name contains this")
    parser.add_argument("--workdir",
                        help="write programs, inputs and results here (kept)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if not args.pcc:
        parser.error("name the pcc driver (argument or $PCC)")

    cases = [case for case in all_cases() if args.filter in case.name]
    if args.list:
        for case in cases:
            print(case.name)
        return 0
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
        workdir, cleanup = args.workdir, None
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="sim-kernels-")
        workdir = cleanup.name
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        outcomes = list(pool.map(
            lambda case: run_case(case, args.pcc, args.backend, workdir),
            cases))
    failures = [outcome for outcome in outcomes if outcome]
    for failure in failures:
        print(failure)
    if cleanup:
        cleanup.cleanup()
    print(f"sim kernels: {len(cases) - len(failures)} passed, "
          f"{len(failures)} failed ({time.monotonic() - start:.1f} s)",
          file=sys.stderr)
    print(f"sim kernels: {len(cases) - len(failures)} passed, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
