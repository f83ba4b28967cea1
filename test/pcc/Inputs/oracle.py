"""End-to-end oracle for `pcc run` on the cpu backend.

For every case below it writes an spmd program and random inputs as .npy
files, computes the expected results with NumPy alone (an independent
reference: sums in device order in the accumulation type that
docs/language.md names, rounded once), runs `pcc run`, and compares the
printed output with NumPy's own str() of the expected arrays, character for
character.

usage: oracle.py PCC [--filter SUBSTRING] [--exclude REGEX] [--keep DIR]
                 [--processes P] [--sample K]

With --sample K only every K-th case runs (the sanitizer build's tests look
for memory errors, and run a third of the cases in each variant).

With --processes P (PCC runs each program on P processes, under mpirun), a
case whose devices do not split over P processes must fail with pcc's error
saying so, and counts as skipped.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

RNG = np.random.default_rng(20261202)

# MLIR element type -> NumPy dtype. bf16 has no NumPy type: those cases feed
# f32 data and convert inside the program (see bf16_round).
DTYPES = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}
INTS = ("i8", "i16", "i32", "i64")
FLOATS = ("f16", "f32", "f64")


def shape_str(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def random_array(shape, elem):
    dtype = DTYPES[elem]
    if elem in INTS:
        info = np.iinfo(dtype)
        # Full range, so that sums wrap.
        return RNG.integers(info.min, info.max, size=shape, dtype=dtype,
                            endpoint=True)
    values = RNG.standard_normal(size=shape) * 100
    return values.astype(dtype)


def accumulate(arrays, elem, op):
    """Combines per-device arrays in device order, as the runtime must."""
    if op == "sum":
        if elem in INTS:
            # Two's complement wraparound: sum in uint64, view back.
            total = np.zeros(arrays[0].shape, np.uint64)
            with np.errstate(over="ignore"):
                for a in arrays:
                    total = total + a.astype(np.int64).astype(np.uint64)
            return total.astype(DTYPES[elem])
        acc_type = np.float32 if elem in ("f16", "f32") else np.float64
        total = arrays[0].astype(acc_type)
        for a in arrays[1:]:
            total = (total + a.astype(acc_type)).astype(acc_type)
        return total.astype(DTYPES[elem])
    combine = np.maximum if op == "max" else np.minimum
    result = arrays[0]
    for a in arrays[1:]:
        result = combine(result, a)
    return result


class Case:
    def __init__(self, name, program, inputs, expected):
        self.name, self.program = name, program
        self.inputs, self.expected = inputs, expected


def one_collective_program(mnemonic, t_full, t_dev):
    """A pmap over "i" whose devices each yield `mnemonic` of their slice."""
    return f"""
func.func @main(%a: {t_full}) -> {t_full} {{
  %r = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_full}) {{
    %s = spmd.{mnemonic} %x over "i" : {t_dev}
    spmd.yield %s : {t_dev}
  }}
  return %r : {t_full}
}}
"""


def reduction_case(op, elem, devices, shape):
    mnemonic = {"sum": "psum", "max": "pmax", "min": "pmin"}[op]
    full = (devices,) + shape
    a = random_array(full, elem)
    program = one_collective_program(mnemonic, shape_str(full, elem),
                                     shape_str(shape, elem))
    total = accumulate(list(a), elem, op)
    expected = np.stack([total] * devices)
    return Case(f"{mnemonic}-{elem}-n{devices}-{'x'.join(map(str, shape))}",
                program, [a], [expected])


def pmean_case(elem, devices, shape):
    full = (devices,) + shape
    a = random_array(full, elem)
    program = one_collective_program("pmean", shape_str(full, elem),
                                     shape_str(shape, elem))
    # JAX's definition: psum, then a division in the operand's type.
    total = accumulate(list(a), elem, "sum")
    mean = (total / DTYPES[elem](devices)).astype(DTYPES[elem])
    return Case(f"pmean-{elem}-n{devices}", program, [a],
                [np.stack([mean] * devices)])


def all_gather_case(elem, devices, shape, axis, tiled):
    full = (devices,) + shape
    a = random_array(full, elem)
    t_full, t_dev = shape_str(full, elem), shape_str(shape, elem)
    parts = list(a)
    gathered = (np.concatenate(parts, axis=axis) if tiled
                else np.stack(parts, axis=axis))
    t_res = shape_str(gathered.shape, elem)
    t_out = shape_str((devices,) + gathered.shape, elem)
    attrs = (f" axis {axis}" if axis else "") + (" tiled" if tiled else "")
    program = f"""
func.func @main(%a: {t_full}) -> {t_out} {{
  %r = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_out}) {{
    %g = spmd.all_gather %x over "i"{attrs} : {t_dev} -> {t_res}
    spmd.yield %g : {t_res}
  }}
  return %r : {t_out}
}}
"""
    name = f"all_gather-{elem}-n{devices}-axis{axis}{'-tiled' if tiled else ''}"
    return Case(name, program, [a], [np.stack([gathered] * devices)])


def bf16_round(values):
    """Rounds float32 values to the nearest bfloat16 (ties to even)."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def bf16_case(op, devices):
    """bf16 has no NumPy dtype: f32 data goes in and comes out, converted
    inside the program; the reduction itself runs on bf16."""
    mnemonic = {"sum": "psum", "max": "pmax", "min": "pmin",
                "mean": "pmean"}[op]
    a = random_array((devices, 4), "f32")
    program = f"""
func.func @main(%a: tensor<{devices}x4xf32>) -> tensor<{devices}x4xf32> {{
  %r = spmd.pmap "i" (%x = %a : tensor<{devices}x4xf32>) -> (tensor<{devices}x4xf32>) {{
    %h = arith.truncf %x : tensor<4xf32> to tensor<4xbf16>
    %s = spmd.{mnemonic} %h over "i" : tensor<4xbf16>
    %f = arith.extf %s : tensor<4xbf16> to tensor<4xf32>
    spmd.yield %f : tensor<4xf32>
  }}
  return %r : tensor<{devices}x4xf32>
}}
"""
    parts = [bf16_round(row) for row in a]
    if op in ("sum", "mean"):
        total = parts[0]
        for part in parts[1:]:
            total = (total + part).astype(np.float32)
        result = bf16_round(total)
        if op == "mean":
            result = bf16_round(result / np.float32(devices))
    else:
        result = accumulate(parts, "f32", op)
    return Case(f"{mnemonic}-bf16-n{devices}", program, [a],
                [np.stack([result] * devices)])


def grid_case(elem, rows, cols):
    """psum over each axis and both, pmax over the outer, and axis_index."""
    a = random_array((rows, cols), elem)
    t2 = shape_str((rows, cols), elem)
    t1 = shape_str((cols,), elem)
    t0 = shape_str((), elem)
    i64_2 = shape_str((rows, cols), "i64")
    i64_1 = shape_str((cols,), "i64")
    program = f"""
func.func @main(%a: {t2}) -> ({t2}, {t2}, {t2}, {t2}, {i64_2}, {i64_2}) {{
  %r:6 = spmd.pmap "i" (%row = %a : {t2})
      -> ({t2}, {t2}, {t2}, {t2}, {i64_2}, {i64_2}) {{
    %s:6 = spmd.pmap "j" (%x = %row : {t1})
        -> ({t1}, {t1}, {t1}, {t1}, {i64_1}, {i64_1}) {{
      %row_sum = spmd.psum %x over "j" : {t0}
      %col_sum = spmd.psum %x over "i" : {t0}
      %total = spmd.psum %x over ["i", "j"] : {t0}
      %col_max = spmd.pmax %x over "i" : {t0}
      %ij = spmd.axis_index ["i", "j"] : index
      %ji = spmd.axis_index ["j", "i"] : index
      %ij64 = arith.index_cast %ij : index to i64
      %ji64 = arith.index_cast %ji : index to i64
      spmd.yield %row_sum, %col_sum, %total, %col_max, %ij64, %ji64
          : {t0}, {t0}, {t0}, {t0}, i64, i64
    }}
    spmd.yield %s#0, %s#1, %s#2, %s#3, %s#4, %s#5
        : {t1}, {t1}, {t1}, {t1}, {i64_1}, {i64_1}
  }}
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5
      : {t2}, {t2}, {t2}, {t2}, {i64_2}, {i64_2}
}}
"""
    row_sum = np.stack([np.full(cols, accumulate(list(a[i]), elem, "sum"))
                        for i in range(rows)])
    col_sum = np.stack([accumulate(list(a[:, j]), elem, "sum")
                        for j in range(cols)])
    col_sum = np.stack([col_sum] * rows)
    total = accumulate(list(a.reshape(-1)), elem, "sum")
    total = np.full((rows, cols), total, DTYPES[elem])
    col_max = np.stack([np.max(a, axis=0)] * rows)
    ij = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    ji = np.array([[j * rows + i for j in range(cols)] for i in range(rows)],
                  dtype=np.int64)
    return Case(f"grid-{elem}-{rows}x{cols}", program, [a],
                [row_sum.astype(DTYPES[elem]), col_sum, total, col_max, ij, ji])


def gather_order_case(rows, cols):
    """all_gather over ["j", "i"] stacks in the written order (j outer)."""
    program = f"""
func.func @main() -> tensor<{rows}x{cols}x{rows * cols}xi64> {{
  %r = spmd.pmap "i" size {rows} -> (tensor<{rows}x{cols}x{rows * cols}xi64>) {{
    %s = spmd.pmap "j" size {cols} -> (tensor<{cols}x{rows * cols}xi64>) {{
      %k = spmd.axis_index ["i", "j"] : index
      %v = arith.index_cast %k : index to i64
      %g = spmd.all_gather %v over ["j", "i"] : i64 -> tensor<{rows * cols}xi64>
      spmd.yield %g : tensor<{rows * cols}xi64>
    }}
    spmd.yield %s : tensor<{cols}x{rows * cols}xi64>
  }}
  return %r : tensor<{rows}x{cols}x{rows * cols}xi64>
}}
"""
    order = np.array([i * cols + j for j in range(cols) for i in range(rows)],
                     dtype=np.int64)
    return Case(f"gather-order-{rows}x{cols}", program, [],
                [np.broadcast_to(order, (rows, cols, rows * cols))])


def scalar_and_captured_case():
    """Scalar yields, a captured tensor and a captured scalar argument."""
    a = random_array((4,), "f32")
    w = random_array((3,), "f32")
    s = np.array(2.5, np.float32)
    program = """
func.func @main(%a: tensor<4xf32>, %w: tensor<3xf32>, %s: f32)
    -> (tensor<4xf32>, tensor<4x3xf32>) {
  %r:2 = spmd.pmap "i" (%x = %a : tensor<4xf32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
    %v = tensor.extract %x[] : tensor<f32>
    %scaled = arith.mulf %v, %s : f32
    %total = spmd.psum %scaled over "i" : f32
    %e = tensor.empty() : tensor<3xf32>
    %b = linalg.fill ins(%v : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %y = arith.addf %b, %w : tensor<3xf32>
    spmd.yield %total, %y : f32, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4x3xf32>
}
"""
    total = accumulate([np.float32(v * s) for v in a], "f32", "sum")
    y = np.stack([w + v for v in a]).astype(np.float32)
    return Case("scalars-and-captured", program, [a, w, s],
                [np.full(4, total, np.float32), y])


def size_only_case(devices):
    program = f"""
func.func @main() -> tensor<{devices}xi64> {{
  %r = spmd.pmap "i" size {devices} -> (tensor<{devices}xi64>) {{
    %k = spmd.axis_index "i" : index
    %v = arith.index_cast %k : index to i64
    %s = spmd.psum %v over "i" : i64
    %p = arith.muli %v, %s : i64
    spmd.yield %p : i64
  }}
  return %r : tensor<{devices}xi64>
}}
"""
    k = np.arange(devices, dtype=np.int64)
    return Case(f"size-only-n{devices}", program, [], [k * k.sum()])


def pmap_program(t_full, t_dev, body, t_res, full_res):
    """A pmap over "i" whose body computes %r from %x (its slice of %a)."""
    return f"""
func.func @main(%a: {t_full}) -> {full_res} {{
  %out = spmd.pmap "i" (%x = %a : {t_full}) -> ({full_res}) {{
{body}
    spmd.yield %r : {t_res}
  }}
  return %out : {full_res}
}}
"""


def groups_attr(groups):
    if groups is None:
        return ""
    return " groups [" + ", ".join(
        "[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def group_of(groups, devices, d):
    """The members of device d's group, in order, and d's position."""
    if groups is None:
        return list(range(devices)), d
    for g in groups:
        if d in g:
            return list(g), g.index(d)
    raise AssertionError


def split_parts(value, dim, parts, tiled):
    if tiled:
        return np.split(value, parts, axis=dim)
    return [np.take(value, k, axis=dim) for k in range(parts)]


def psum_scatter_case(elem, devices, shape, dim=0, tiled=False, groups=None):
    full = (devices,) + shape
    a = random_array(full, elem)
    results = []
    for d in range(devices):
        members, k = group_of(groups, devices, d)
        total = accumulate([a[m] for m in members], elem, "sum")
        results.append(split_parts(total, dim, len(members), tiled)[k])
    t_dev, t_res = shape_str(shape, elem), shape_str(results[0].shape, elem)
    attrs = groups_attr(groups) + (f" dim {dim}" if dim else "") + (
        " tiled" if tiled else "")
    body = f"    %r = spmd.psum_scatter %x over \"i\"{attrs} : {t_dev} -> {t_res}"
    program = pmap_program(shape_str(full, elem), t_dev, body, t_res,
                           shape_str((devices,) + results[0].shape, elem))
    name = (f"psum_scatter-{elem}-n{devices}-{'x'.join(map(str, shape))}"
            f"-dim{dim}{'-tiled' if tiled else ''}{'-groups' if groups else ''}")
    return Case(name, program, [a], [np.stack(results)])


def reduction_groups_case(op, elem, groups):
    mnemonic = {"sum": "psum", "max": "pmax", "min": "pmin",
                "mean": "pmean"}[op]
    devices = sum(len(g) for g in groups)
    shape = (3,)
    full = (devices,) + shape
    a = random_array(full, elem)
    results = []
    for d in range(devices):
        members, _ = group_of(groups, devices, d)
        value = accumulate([a[m] for m in members], elem,
                           "sum" if op == "mean" else op)
        if op == "mean":
            value = (value / DTYPES[elem](len(members))).astype(DTYPES[elem])
        results.append(value)
    t_dev = shape_str(shape, elem)
    body = (f"    %r = spmd.{mnemonic} %x over \"i\"{groups_attr(groups)}"
            f" : {t_dev}")
    program = pmap_program(shape_str(full, elem), t_dev, body, t_dev,
                           shape_str(full, elem))
    return Case(f"{mnemonic}-{elem}-groups-{len(groups)}x", program, [a],
                [np.stack(results)])


def all_gather_groups_case(elem, groups, tiled):
    devices = sum(len(g) for g in groups)
    shape = (2,)
    a = random_array((devices,) + shape, elem)
    results = []
    for d in range(devices):
        members, _ = group_of(groups, devices, d)
        parts = [a[m] for m in members]
        results.append(np.concatenate(parts) if tiled else np.stack(parts))
    t_dev, t_res = shape_str(shape, elem), shape_str(results[0].shape, elem)
    body = (f"    %r = spmd.all_gather %x over \"i\"{groups_attr(groups)}"
            f"{' tiled' if tiled else ''} : {t_dev} -> {t_res}")
    program = pmap_program(shape_str((devices,) + shape, elem), t_dev, body,
                           t_res, shape_str((devices,) + results[0].shape,
                                            elem))
    return Case(f"all_gather-{elem}-groups{'-tiled' if tiled else ''}",
                program, [a], [np.stack(results)])


def permutation_case(kind, elem, devices, shape, perm):
    """ppermute (perm: pairs), pshuffle (perm: sources) or pbroadcast (perm:
    the source)."""
    full = (devices,) + shape
    a = random_array(full, elem)
    if kind == "ppermute":
        results = [np.zeros(shape, DTYPES[elem]) for _ in range(devices)]
        for source, destination in perm:
            results[destination] = a[source]
        attrs = " perm [" + ", ".join(f"[{s}, {t}]" for s, t in perm) + "]"
    elif kind == "pshuffle":
        results = [a[perm[d]] for d in range(devices)]
        attrs = " perm [" + ", ".join(map(str, perm)) + "]"
    else:
        results = [a[perm]] * devices
        attrs = f" from {perm}"
    t_dev = shape_str(shape, elem) if shape else elem
    body = f"    %r = spmd.{kind} %x{'' if shape else 's'} over \"i\"{attrs} : {t_dev}"
    if not shape:
        body = f"    %xs = tensor.extract %x[] : tensor<{elem}>\n" + body
    program = pmap_program(shape_str(full, elem), t_dev, body, t_dev,
                           shape_str(full, elem))
    return Case(f"{kind}-{elem}-n{devices}-{'x'.join(map(str, shape)) or 's'}",
                program, [a], [np.stack(results)])


def all_to_all_case(elem, devices, shape, split, concat, tiled, groups=None):
    full = (devices,) + shape
    a = random_array(full, elem)
    results = []
    for d in range(devices):
        members, k = group_of(groups, devices, d)
        chunks = [split_parts(a[m], split, len(members), tiled)[k]
                  for m in members]
        results.append(np.concatenate(chunks, axis=concat) if tiled
                       else np.stack(chunks, axis=concat))
    t_dev, t_res = shape_str(shape, elem), shape_str(results[0].shape, elem)
    attrs = (groups_attr(groups) + f" split {split} concat {concat}"
             + (" tiled" if tiled else ""))
    body = f"    %r = spmd.all_to_all %x over \"i\"{attrs} : {t_dev} -> {t_res}"
    program = pmap_program(shape_str(full, elem), t_dev, body, t_res,
                           shape_str((devices,) + results[0].shape, elem))
    name = (f"all_to_all-{elem}-n{devices}-s{split}c{concat}"
            f"{'-tiled' if tiled else ''}{'-groups' if groups else ''}")
    return Case(name, program, [a], [np.stack(results)])


def identities_case(elem, devices):
    """all_gather(psum_scatter(x)) is psum(x); pshuffle by a permutation and
    its inverse, and all_to_all twice with split and concat swapped, give x
    back: each checked against NumPy, bit for bit."""
    shape = (devices * 2, 3)
    full = (devices,) + shape
    a = random_array(full, elem)
    perm = [(d + 1) % devices for d in range(devices)]
    inverse = [perm.index(d) for d in range(devices)]
    t_dev = shape_str(shape, elem)
    t_part = shape_str((2, 3), elem)
    t_moved = shape_str((2, devices * 3), elem)
    perm_text = ", ".join(map(str, perm))
    inverse_text = ", ".join(map(str, inverse))
    program = f"""
func.func @main(%a: {shape_str(full, elem)}) -> ({shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}) {{
  %out:4 = spmd.pmap "i" (%x = %a : {shape_str(full, elem)}) -> ({shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}) {{
    %s = spmd.psum %x over "i" : {t_dev}
    %rs = spmd.psum_scatter %x over "i" tiled : {t_dev} -> {t_part}
    %g = spmd.all_gather %rs over "i" tiled : {t_part} -> {t_dev}
    %p = spmd.pshuffle %x over "i" perm [{perm_text}] : {t_dev}
    %q = spmd.pshuffle %p over "i" perm [{inverse_text}] : {t_dev}
    %t = spmd.all_to_all %x over "i" split 0 concat 1 tiled : {t_dev} -> {t_moved}
    %u = spmd.all_to_all %t over "i" split 1 concat 0 tiled : {t_moved} -> {t_dev}
    spmd.yield %s, %g, %q, %u : {t_dev}, {t_dev}, {t_dev}, {t_dev}
  }}
  return %out#0, %out#1, %out#2, %out#3 : {shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}, {shape_str(full, elem)}
}}
"""
    total = np.stack([accumulate(list(a), elem, "sum")] * devices)
    return Case(f"identities-{elem}-n{devices}", program, [a],
                [total, total, a, a])


def grid_movement_case(rows, cols):
    """psum_scatter, pshuffle and all_to_all over two axes, in grid order
    and reversed: device positions are row-major in the order written."""
    n = rows * cols
    a = random_array((rows, cols, n), "i32")
    program = f"""
func.func @main(%a: tensor<{rows}x{cols}x{n}xi32>)
    -> (tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}x{n}xi32>, tensor<{rows}x{cols}x{n}xi32>) {{
  %r:4 = spmd.pmap "i" (%row = %a : tensor<{rows}x{cols}x{n}xi32>)
      -> (tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}x{n}xi32>, tensor<{rows}x{cols}x{n}xi32>) {{
    %s:4 = spmd.pmap "j" (%x = %row : tensor<{cols}x{n}xi32>)
        -> (tensor<{cols}xi32>, tensor<{cols}xi32>, tensor<{cols}x{n}xi32>, tensor<{cols}x{n}xi32>) {{
      %ij = spmd.psum_scatter %x over ["i", "j"] : tensor<{n}xi32> -> tensor<i32>
      %ji = spmd.psum_scatter %x over ["j", "i"] : tensor<{n}xi32> -> tensor<i32>
      %p = spmd.pshuffle %x over ["j", "i"] perm [{", ".join(str((k + 1) % n) for k in range(n))}] : tensor<{n}xi32>
      %t = spmd.all_to_all %x over ["j", "i"] split 0 concat 0 : tensor<{n}xi32> -> tensor<{n}xi32>
      %ij0 = tensor.extract %ij[] : tensor<i32>
      %ji0 = tensor.extract %ji[] : tensor<i32>
      spmd.yield %ij0, %ji0, %p, %t : i32, i32, tensor<{n}xi32>, tensor<{n}xi32>
    }}
    spmd.yield %s#0, %s#1, %s#2, %s#3 : tensor<{cols}xi32>, tensor<{cols}xi32>, tensor<{cols}x{n}xi32>, tensor<{cols}x{n}xi32>
  }}
  return %r#0, %r#1, %r#2, %r#3 : tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}xi32>, tensor<{rows}x{cols}x{n}xi32>, tensor<{rows}x{cols}x{n}xi32>
}}
"""
    # Written-order index of device (i, j): i*cols + j for ["i", "j"],
    # j*rows + i for ["j", "i"].
    order_ji = [(i, j) for j in range(cols) for i in range(rows)]
    total = accumulate([a[i, j] for i in range(rows) for j in range(cols)],
                       "i32", "sum")
    ij = np.zeros((rows, cols), np.int32)
    ji = np.zeros((rows, cols), np.int32)
    p = np.zeros_like(a)
    t = np.zeros_like(a)
    for i in range(rows):
        for j in range(cols):
            ij[i, j] = total[i * cols + j]
            k = j * rows + i
            ji[i, j] = total[k]
            p[i, j] = a[order_ji[(k + 1) % n]]
            t[i, j] = [a[order_ji[m]][k] for m in range(n)]
    return Case(f"grid-movement-{rows}x{cols}", program, [a], [ij, ji, p, t])


def bf16_scatter_case(devices):
    """psum_scatter on bf16 (f32 data in and out, converted inside): sums
    in f32, rounded once, as psum's."""
    a = random_array((devices, devices * 2), "f32")
    n2 = devices * 2
    program = f"""
func.func @main(%a: tensor<{devices}x{n2}xf32>) -> tensor<{devices}x2xf32> {{
  %r = spmd.pmap "i" (%x = %a : tensor<{devices}x{n2}xf32>) -> (tensor<{devices}x2xf32>) {{
    %h = arith.truncf %x : tensor<{n2}xf32> to tensor<{n2}xbf16>
    %s = spmd.psum_scatter %h over "i" tiled : tensor<{n2}xbf16> -> tensor<2xbf16>
    %f = arith.extf %s : tensor<2xbf16> to tensor<2xf32>
    spmd.yield %f : tensor<2xf32>
  }}
  return %r : tensor<{devices}x2xf32>
}}
"""
    parts = [bf16_round(row) for row in a]
    total = parts[0]
    for part in parts[1:]:
        total = (total + part).astype(np.float32)
    total = bf16_round(total)
    return Case(f"psum_scatter-bf16-n{devices}", program, [a],
                [total.reshape(devices, 2)])


def bool_permute_case(devices):
    """ppermute and pbroadcast of i1 values (made by a comparison: mapped
    operands and results are not i1), yielded as i8; devices that receive
    nothing get false."""
    a = RNG.integers(-5, 5, size=(devices, 3)).astype(np.int32)
    t_full, t_dev = f"tensor<{devices}x3xi32>", "tensor<3xi32>"
    t_bool, t_out = "tensor<3xi1>", f"tensor<{devices}x3xi8>"
    program = f"""
func.func @main(%a: {t_full}) -> ({t_out}, {t_out}) {{
  %r:2 = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_out}, {t_out}) {{
    %zero = arith.constant dense<0> : {t_dev}
    %c = arith.cmpi sgt, %x, %zero : {t_dev}
    %p = spmd.ppermute %c over "i" perm [[0, 1]] : {t_bool}
    %b = spmd.pbroadcast %c over "i" from {devices - 1} : {t_bool}
    %p8 = arith.extui %p : {t_bool} to tensor<3xi8>
    %b8 = arith.extui %b : {t_bool} to tensor<3xi8>
    spmd.yield %p8, %b8 : tensor<3xi8>, tensor<3xi8>
  }}
  return %r#0, %r#1 : {t_out}, {t_out}
}}
"""
    positive = (a > 0).astype(np.int8)
    moved = np.zeros_like(positive)
    moved[1] = positive[0]
    return Case(f"ppermute-i1-n{devices}", program, [a],
                [moved, np.stack([positive[devices - 1]] * devices)])


def movement_sweep_case(elem, devices):
    """Every movement collective at once: psum_scatter (tiled), a ring
    ppermute, a pshuffle, pbroadcast from the last device and a tiled
    all_to_all, on one input."""
    shape = (devices * 2,)
    full = (devices,) + shape
    a = random_array(full, elem)
    t_full, t_dev = shape_str(full, elem), shape_str(shape, elem)
    t_part = shape_str((2,), elem)
    t_parts = shape_str((devices, 2), elem)
    ring = ", ".join(f"[{d}, {(d + 1) % devices}]" for d in range(devices))
    # Device d receives from 3d + 1 (mod N): not its own inverse, so that
    # sources and destinations cannot be confused (N = 2 or 8).
    shuffle = [(3 * d + 1) % devices for d in range(devices)]
    shuffle_text = ", ".join(map(str, shuffle))
    program = f"""
func.func @main(%a: {t_full}) -> ({t_parts}, {t_full}, {t_full}, {t_full}, {t_full}) {{
  %r:5 = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_parts}, {t_full}, {t_full}, {t_full}, {t_full}) {{
    %s = spmd.psum_scatter %x over "i" tiled : {t_dev} -> {t_part}
    %p = spmd.ppermute %x over "i" perm [{ring}] : {t_dev}
    %q = spmd.pshuffle %x over "i" perm [{shuffle_text}] : {t_dev}
    %b = spmd.pbroadcast %x over "i" from {devices - 1} : {t_dev}
    %t = spmd.all_to_all %x over "i" split 0 concat 0 tiled : {t_dev} -> {t_dev}
    spmd.yield %s, %p, %q, %b, %t : {t_part}, {t_dev}, {t_dev}, {t_dev}, {t_dev}
  }}
  return %r#0, %r#1, %r#2, %r#3, %r#4 : {t_parts}, {t_full}, {t_full}, {t_full}, {t_full}
}}
"""
    total = accumulate(list(a), elem, "sum")
    scattered = total.reshape(devices, 2)
    shifted = np.roll(a, 1, axis=0)
    shuffled = a[shuffle]
    broadcast = np.stack([a[devices - 1]] * devices)
    moved = a.reshape(devices, devices, 2).transpose(1, 0, 2).reshape(full)
    return Case(f"movement-{elem}-n{devices}", program, [a],
                [scattered, shifted, shuffled, broadcast, moved])


def bf16_movement_case(devices):
    """ppermute, pshuffle, pbroadcast and all_to_all of bf16 values (f32
    data in and out, converted inside): moving them is exact."""
    a = random_array((devices, devices), "f32")
    t_full = f"tensor<{devices}x{devices}xf32>"
    t_dev, t_half = f"tensor<{devices}xf32>", f"tensor<{devices}xbf16>"
    ring = ", ".join(f"[{d}, {(d + 1) % devices}]" for d in range(devices))
    reverse = ", ".join(str(devices - 1 - d) for d in range(devices))
    program = f"""
func.func @main(%a: {t_full}) -> ({t_full}, {t_full}, {t_full}, {t_full}) {{
  %r:4 = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_full}, {t_full}, {t_full}, {t_full}) {{
    %h = arith.truncf %x : {t_dev} to {t_half}
    %p = spmd.ppermute %h over "i" perm [{ring}] : {t_half}
    %q = spmd.pshuffle %h over "i" perm [{reverse}] : {t_half}
    %b = spmd.pbroadcast %h over "i" from 0 : {t_half}
    %t = spmd.all_to_all %h over "i" split 0 concat 0 : {t_half} -> {t_half}
    %pf = arith.extf %p : {t_half} to {t_dev}
    %qf = arith.extf %q : {t_half} to {t_dev}
    %bf = arith.extf %b : {t_half} to {t_dev}
    %tf = arith.extf %t : {t_half} to {t_dev}
    spmd.yield %pf, %qf, %bf, %tf : {t_dev}, {t_dev}, {t_dev}, {t_dev}
  }}
  return %r#0, %r#1, %r#2, %r#3 : {t_full}, {t_full}, {t_full}, {t_full}
}}
"""
    h = np.stack([bf16_round(row) for row in a])
    return Case(f"movement-bf16-n{devices}", program, [a],
                [np.roll(h, 1, axis=0), h[::-1],
                 np.stack([h[0]] * devices), h.T.copy()])


def bool_shuffle_case(devices):
    """pshuffle and all_to_all of i1 values (made by a comparison), yielded
    as i8."""
    a = RNG.integers(-5, 5, size=(devices, devices)).astype(np.int32)
    t_full, t_dev = f"tensor<{devices}x{devices}xi32>", f"tensor<{devices}xi32>"
    t_bool, t_byte = f"tensor<{devices}xi1>", f"tensor<{devices}xi8>"
    t_out = f"tensor<{devices}x{devices}xi8>"
    reverse = ", ".join(str(devices - 1 - d) for d in range(devices))
    program = f"""
func.func @main(%a: {t_full}) -> ({t_out}, {t_out}) {{
  %r:2 = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_out}, {t_out}) {{
    %zero = arith.constant dense<0> : {t_dev}
    %c = arith.cmpi sgt, %x, %zero : {t_dev}
    %q = spmd.pshuffle %c over "i" perm [{reverse}] : {t_bool}
    %t = spmd.all_to_all %c over "i" split 0 concat 0 : {t_bool} -> {t_bool}
    %q8 = arith.extui %q : {t_bool} to {t_byte}
    %t8 = arith.extui %t : {t_bool} to {t_byte}
    spmd.yield %q8, %t8 : {t_byte}, {t_byte}
  }}
  return %r#0, %r#1 : {t_out}, {t_out}
}}
"""
    positive = (a > 0).astype(np.int8)
    return Case(f"pshuffle-all_to_all-i1-n{devices}", program, [a],
                [positive[::-1], positive.T.copy()])


def grid_groups_case():
    """On a 2x4 grid: psum and all_gather over the inner axis in groups,
    ppermute and pbroadcast over both axes (positions row-major in the
    order written)."""
    rows, cols, n = 2, 4, 8
    groups = [[0, 3], [2, 1]]
    a = random_array((rows, cols, 3), "i32")
    pairs = [(0, 5), (5, 2), (7, 0)]
    pair_text = ", ".join(f"[{s}, {t}]" for s, t in pairs)
    g = groups_attr(groups)
    program = f"""
func.func @main(%a: tensor<{rows}x{cols}x3xi32>)
    -> (tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x6xi32>, tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x3xi32>) {{
  %r:4 = spmd.pmap "i" (%row = %a : tensor<{rows}x{cols}x3xi32>)
      -> (tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x6xi32>, tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x3xi32>) {{
    %s:4 = spmd.pmap "j" (%x = %row : tensor<{cols}x3xi32>)
        -> (tensor<{cols}x3xi32>, tensor<{cols}x6xi32>, tensor<{cols}x3xi32>, tensor<{cols}x3xi32>) {{
      %sum = spmd.psum %x over "j"{g} : tensor<3xi32>
      %gat = spmd.all_gather %x over "j"{g} tiled : tensor<3xi32> -> tensor<6xi32>
      %p = spmd.ppermute %x over ["i", "j"] perm [{pair_text}] : tensor<3xi32>
      %b = spmd.pbroadcast %x over ["i", "j"] from 6 : tensor<3xi32>
      spmd.yield %sum, %gat, %p, %b : tensor<3xi32>, tensor<6xi32>, tensor<3xi32>, tensor<3xi32>
    }}
    spmd.yield %s#0, %s#1, %s#2, %s#3 : tensor<{cols}x3xi32>, tensor<{cols}x6xi32>, tensor<{cols}x3xi32>, tensor<{cols}x3xi32>
  }}
  return %r#0, %r#1, %r#2, %r#3 : tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x6xi32>, tensor<{rows}x{cols}x3xi32>, tensor<{rows}x{cols}x3xi32>
}}
"""
    flat = a.reshape(n, 3)
    sums = np.zeros_like(a)
    gathered = np.zeros((rows, cols, 6), np.int32)
    for i in range(rows):
        for j in range(cols):
            members, _ = group_of(groups, cols, j)
            sums[i, j] = accumulate([a[i, m] for m in members], "i32", "sum")
            gathered[i, j] = np.concatenate([a[i, m] for m in members])
    moved = np.zeros_like(flat)
    for source, destination in pairs:
        moved[destination] = flat[source]
    broadcast = np.broadcast_to(flat[6], (n, 3))
    return Case("grid-groups-2x4", program, [a],
                [sums, gathered, moved.reshape(a.shape),
                 broadcast.reshape(a.shape)])


def identities_groups_case(elem):
    """The identities within groups of 2 of 4 devices, and all_to_all
    untiled there and back."""
    devices, groups = 4, [[0, 2], [3, 1]]
    shape = (2, 3)
    full = (devices,) + shape
    a = random_array(full, elem)
    g = groups_attr(groups)
    t_full, t_dev = shape_str(full, elem), shape_str(shape, elem)
    t_part, t_turned = shape_str((1, 3), elem), shape_str((3, 2), elem)
    program = f"""
func.func @main(%a: {t_full}) -> ({t_full}, {t_full}, {t_full}) {{
  %out:3 = spmd.pmap "i" (%x = %a : {t_full}) -> ({t_full}, {t_full}, {t_full}) {{
    %s = spmd.psum %x over "i"{g} : {t_dev}
    %rs = spmd.psum_scatter %x over "i"{g} tiled : {t_dev} -> {t_part}
    %ag = spmd.all_gather %rs over "i"{g} tiled : {t_part} -> {t_dev}
    %t = spmd.all_to_all %x over "i"{g} split 0 concat 1 : {t_dev} -> {t_turned}
    %u = spmd.all_to_all %t over "i"{g} split 1 concat 0 : {t_turned} -> {t_dev}
    spmd.yield %s, %ag, %u : {t_dev}, {t_dev}, {t_dev}
  }}
  return %out#0, %out#1, %out#2 : {t_full}, {t_full}, {t_full}
}}
"""
    sums = np.stack([accumulate([a[m] for m in group_of(groups, devices, d)[0]],
                                elem, "sum") for d in range(devices)])
    return Case(f"identities-groups-{elem}", program, [a], [sums, sums, a])


def movement_cases():
    for elem in INTS + FLOATS:
        yield psum_scatter_case(elem, 4, (4, 3))
    for devices in (1, 2, 3, 8):
        yield psum_scatter_case("f32", devices, (devices * 2,), 0, True)
    yield psum_scatter_case("f64", 3, (2, 3, 5), 1, False)
    yield psum_scatter_case("i32", 4, (3, 8), 1, True)
    yield psum_scatter_case("f32", 2, (1 << 17,), 0, True)
    yield psum_scatter_case("f32", 4, (6, 4), 1, True, [[0, 3], [2, 1]])
    for op in ("sum", "max", "min"):
        yield reduction_groups_case(op, "i32", [[0, 2], [1, 3]])
        yield reduction_groups_case(op, "f32", [[4, 0, 2], [1], [3, 5]])
    yield reduction_groups_case("mean", "f32", [[4, 0, 2], [1], [3, 5]])
    yield reduction_groups_case("mean", "f64", [[0, 1, 2, 3], [4, 5, 6, 7]])
    yield reduction_groups_case("sum", "f32", [[0, 1, 2, 3], [4, 5, 6, 7]])
    yield all_gather_groups_case("i64", [[3, 0], [1, 2]], False)
    yield all_gather_groups_case("f16", [[0, 1, 2], [5, 4, 3]], True)
    for elem in INTS + FLOATS:
        yield permutation_case("ppermute", elem, 4, (3,),
                               [(0, 1), (1, 2), (2, 3), (3, 0)])
    yield permutation_case("ppermute", "f32", 5, (2, 2), [(0, 2), (4, 1)])
    yield permutation_case("ppermute", "i64", 3, (), [(2, 0)])
    yield permutation_case("ppermute", "f32", 1, (4,), [(0, 0)])
    for devices, perm in ((2, [1, 0]), (3, [2, 0, 1]),
                          (8, [3, 7, 0, 1, 2, 6, 5, 4])):
        yield permutation_case("pshuffle", "f32", devices, (5,), perm)
    for elem in INTS + FLOATS:
        yield permutation_case("pshuffle", elem, 3, (2,), [1, 2, 0])
        yield permutation_case("pbroadcast", elem, 4, (3,), 2)
        yield all_to_all_case(elem, 4, (4, 3), 0, 1, False)
    yield permutation_case("pshuffle", "i8", 4, (), [3, 2, 1, 0])
    yield permutation_case("pbroadcast", "f32", 8, (1000,), 7)
    for devices in (2, 4):
        yield bf16_scatter_case(devices)
        yield bool_permute_case(devices)
    yield all_to_all_case("f32", 3, (2, 3), 1, 0, False)
    yield all_to_all_case("f32", 2, (4, 3), 0, 1, True)
    yield all_to_all_case("i32", 4, (3, 8), 1, 0, True)
    yield all_to_all_case("f64", 8, (8, 2), 0, 0, False)
    yield all_to_all_case("f32", 1, (3, 2), 0, 1, True)
    yield all_to_all_case("i32", 4, (4, 2), 0, 1, True, [[0, 2], [3, 1]])
    for elem in ("f32", "i32", "f16"):
        yield identities_case(elem, 4)
    yield identities_case("f64", 3)
    for devices in (2, 8):
        yield identities_case("f32", devices)
    for elem in ("f32", "i16"):
        yield identities_groups_case(elem)
    yield grid_movement_case(2, 3)
    yield grid_groups_case()
    for devices in (2, 8):
        for elem in INTS + FLOATS:
            yield movement_sweep_case(elem, devices)
    for devices in (3, 4):
        yield bf16_movement_case(devices)
    for devices in (2, 3):
        yield bool_shuffle_case(devices)
    yield permutation_case("pshuffle", "f32", 1, (3,), [0])
    yield permutation_case("pbroadcast", "i32", 1, (3,), 0)
    yield permutation_case("pbroadcast", "f64", 3, (2,), 1)
    for elem in ("i8", "i16", "i64", "f16", "f64"):
        yield reduction_groups_case("sum", elem, [[0, 2], [1, 3]])
    for elem in ("i8", "f16"):
        yield reduction_groups_case("max", elem, [[3, 1, 0], [2]])


def cases():
    for elem in INTS + FLOATS:
        for op in ("sum", "max", "min"):
            yield reduction_case(op, elem, 4, (3,))
    for devices in (1, 2, 3, 5, 8, 16):
        yield reduction_case("sum", "f32", devices, (2, 3))
    yield reduction_case("sum", "i32", 2, ())
    yield reduction_case("max", "f64", 7, (1000,))
    for elem in FLOATS:
        yield pmean_case(elem, 4, (5,))
    for op in ("sum", "max", "min", "mean"):
        yield bf16_case(op, 5)
    for elem in INTS + FLOATS:
        yield all_gather_case(elem, 4, (3,), 0, False)
    for axis in (0, 1, 2):
        yield all_gather_case("f32", 3, (2, 4), axis, False)
    for axis in (0, 1):
        yield all_gather_case("i32", 3, (2, 4), axis, True)
    yield all_gather_case("f64", 2, (), 0, False)
    for elem in ("i32", "f32"):
        yield grid_case(elem, 2, 3)
    yield grid_case("i64", 4, 2)
    yield gather_order_case(2, 3)
    yield scalar_and_captured_case()
    for devices in (1, 4, 13):
        yield size_only_case(devices)
    yield from movement_cases()


def run_case(pcc, case, workdir, processes):
    program = os.path.join(workdir, case.name + ".mlir")
    with open(program, "w") as handle:
        handle.write(case.program)
    args = []
    for index, value in enumerate(case.inputs):
        path = os.path.join(workdir, f"{case.name}.arg{index}.npy")
        np.save(path, value)
        args.append(path)
    proc = subprocess.run([pcc, "run", program] + args, capture_output=True,
                          text=True, timeout=120)
    expected = "".join(str(value) + "\n" for value in case.expected)
    if (processes > 1 and proc.returncode == 1 and not proc.stdout and
            f"do not split over {processes} processes" in proc.stderr):
        return "skip"
    if proc.returncode != 0 or proc.stdout != expected:
        return (f"FAIL {case.name}: exit {proc.returncode}\n"
                f"--- expected\n{expected}--- got\n{proc.stdout}"
                f"--- stderr\n{proc.stderr[-3000:]}")
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pcc")
    parser.add_argument("--filter", default="")
    parser.add_argument("--exclude", help="skip cases whose name matches")
    parser.add_argument("--keep", help="write programs and inputs here")
    parser.add_argument("--processes", type=int, default=1,
                        help="PCC runs programs on this many processes")
    parser.add_argument("--sample", type=int, default=1,
                        help="run only every K-th case")
    options = parser.parse_args()
    workdir = options.keep or tempfile.mkdtemp(prefix="pcc-oracle-")
    os.makedirs(workdir, exist_ok=True)
    failures, count, skipped = [], 0, 0
    for index, case in enumerate(cases()):
        if index % options.sample:
            continue
        if options.filter not in case.name:
            continue
        if options.exclude and re.search(options.exclude, case.name):
            continue
        count += 1
        failure = run_case(options.pcc, case, workdir, options.processes)
        if failure == "skip":
            skipped += 1
        elif failure:
            failures.append(failure)
    for failure in failures:
        print(failure)
    print(f"oracle: {count - len(failures) - skipped} passed, "
          f"{len(failures)} failed" +
          (f", {skipped} skipped (devices do not split over "
           f"{options.processes} processes)" if skipped else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
