#!/usr/bin/env python3
"""Differential tester: random valid spmd programs, checked against NumPy.

Each program is a nest of 1 to 3 pmaps (up to 32 devices) over random
inputs of one element type, whose body chains elementwise ops, reductions,
every collective over subsets and lists of axes (and within random
axis_index_groups), all_gather at every axis (stacked and tiled),
psum_scatter, all_to_all, ppermute, pshuffle and pbroadcast, axis_index, loops and branches on uniform conditions,
values captured from an outer pmap, tensor.extract and tensor.insert at
indices computed at run time, and calls of the program's own functions,
named like what libc, libm and compiler-rt define (memcpy, expf, ...). A
few programs index past the end on purpose: every run must then end with
pcc's out-of-bounds error (NumPy's IndexError). While it writes a program, the
generator evaluates it on every device with NumPy alone: that is the
expected result, computed without pcc. Floating-point values are small
integers, and an op whose result would not be exact in its type (or would be
-0.0) is not written, so the expected bits do not depend on the order in
which pcc combines values.

Every program runs in every placement of its devices (threads, all on the
calling thread, one host thread, unpinned threads) under `pcc run`, and as
an executable of `pcc compile`; each run's saved results must equal NumPy's
bit for bit. Given a sanitizer build's pcc (build-asan/bin/pcc), any report
of AddressSanitizer or UndefinedBehaviorSanitizer is a finding too. A
finding is a program, a configuration and what differed.

With --backend=cuda-sim, the configurations are the simulated GPU's: a GPU
per device (NCCL) and all devices on one (--oversubscribe). With
--processes P, every run is on P processes under mpirun; a program whose
devices do not split over them must fail with pcc's error saying so, and
counts as skipped.

usage: random_programs.py PCC [--seed S] [--count N] [--jobs J] [--keep DIR]
                              [--backend cpu|cuda-sim] [--processes P]
"""

import argparse
import concurrent.futures
import itertools
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

DTYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "f16": np.float16, "bf16": np.float32, "f32": np.float32,
          "f64": np.float64}
# The largest integer each float type holds exactly, with every integer below.
EXACT = {"f16": 2048, "bf16": 256, "f32": 2 ** 24, "f64": 2 ** 53}
AXES = ("a", "b", "c")
# What runs each command: mpirun with --processes.
LAUNCHER = []
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Where devices run: the environment of each `pcc run` configuration.
# Each backend's configurations: environment and extra flags of `pcc run`.
PLACEMENTS = {
    "cpu": {
        "default": ({}, []),
        "threads": ({"PCC_SERIAL_WORK": "0"}, []),
        "one-thread": ({"PCC_HOST_THREADS": "1"}, []),
        "unpinned": ({"PCC_PIN_THREADS": "0", "PCC_SERIAL_WORK": "0"}, []),
    },
    # The simulated GPU: one GPU per device (NCCL), and every device on one
    # GPU (pcc's own collective kernels).
    "cuda-sim": {
        "nccl": ({}, ["--backend=cuda-sim"]),
        "oversubscribed": ({"PCC_SIM_GPUS": "1"},
                           ["--backend=cuda-sim", "--oversubscribe"]),
    },
}


def tensor_type(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def axes_attr(axes):
    return f'"{axes[0]}"' if len(axes) == 1 else \
        "[" + ", ".join(f'"{a}"' for a in axes) + "]"


def groups_attr(groups):
    if groups is None:
        return ""
    return " groups [" + ", ".join(
        "[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


class Rejected(Exception):
    """An op whose result would not be exact: the generator tries another."""


class Context:
    """What ops share: the grid, the element type, and the helpers that
    evaluate on every device."""

    def __init__(self, rng):
        self.rng = rng
        self.elem = str(rng.choice(list(DTYPES)))
        self.is_float = self.elem in EXACT
        # A quarter of the float programs take arbitrary values: NumPy cannot
        # say their bits, but every configuration must give the same ones.
        self.inexact = self.is_float and rng.random() < 0.25
        depth = int(rng.integers(1, 4))
        sizes = []
        for _ in range(depth):
            room = 32 // int(np.prod(sizes, dtype=np.int64))
            sizes.append(int(rng.choice([s for s in (1, 2, 3, 4, 5, 8)
                                         if s <= room])))
        self.sizes = sizes
        self.axes = list(AXES[:depth])
        self.devices = list(itertools.product(*[range(s) for s in sizes]))
        self.counter = 0
        # The program's functions besides @main (Call), and their names.
        self.functions = []
        self.function_names = set()
        # The kinds of op tried, for the summary.
        self.kinds = set()
        # Whether the program indexes out of bounds on purpose.
        self.expect_error = rng.random() < 0.08

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def random_values(self, shape):
        if self.inexact:
            return self.exact(self.rng.standard_normal(size=shape) * 3)
        if self.is_float:
            return self.rng.integers(-4, 5, size=shape).astype(np.float64)
        info = np.iinfo(DTYPES[self.elem])
        return self.rng.integers(info.min, info.max, size=shape,
                                 dtype=np.int64, endpoint=True)

    def exact(self, array):
        """`array` in the program's type: integers wrap; floats (kept as
        float64) must be exact integers in range and not -0.0."""
        array = np.asarray(array)
        if not self.is_float:
            with np.errstate(over="ignore"):
                return array.astype(np.int64).astype(
                    DTYPES[self.elem]).astype(np.int64)
        array = array.astype(np.float64)
        if self.inexact:
            # Rounded to the type, roughly (bf16 is not); never compared.
            with np.errstate(all="ignore"):
                return array.astype(DTYPES[self.elem]).astype(np.float64)
        if (np.any(np.abs(array) > EXACT[self.elem])
                or np.any(array != np.round(array))
                or np.any((array == 0) & np.signbit(array))):
            raise Rejected()
        return array

    def group(self, device, axes):
        """The devices of `device`'s group over `axes`, in rank order
        (row-major over `axes` as written)."""
        positions = [self.axes.index(a) for a in axes]
        members = []
        for coords in itertools.product(
                *[range(self.sizes[p]) for p in positions]):
            member = list(device)
            for p, c in zip(positions, coords):
                member[p] = c
            members.append(tuple(member))
        return members

    def rank(self, device, axes):
        rank = 0
        for a in axes:
            p = self.axes.index(a)
            rank = rank * self.sizes[p] + device[p]
        return rank

    def random_groups(self, axes, equal):
        """None, or (a third of the time, for one axis) a random partition
        of its positions into groups, of equal sizes if `equal`."""
        if len(axes) != 1 or self.rng.random() >= 1 / 3:
            return None
        size = self.sizes[self.axes.index(axes[0])]
        order = [int(p) for p in self.rng.permutation(size)]
        if equal:
            divisors = [g for g in range(1, size + 1) if size % g == 0]
            per = int(self.rng.choice(divisors))
            cuts = list(range(per, size, per))
        else:
            cuts = sorted(int(c) for c in self.rng.choice(
                range(1, size), size=int(self.rng.integers(0, size)),
                replace=False)) if size > 1 else []
        return [order[a:b] for a, b in zip([0] + cuts, cuts + [size])]

    def members(self, device, axes, groups):
        """The devices `device` runs a collective with, in rank order: its
        group over `axes`, or its part of it under `groups`."""
        members = self.group(device, axes)
        if groups is None:
            return members
        axis = self.axes.index(axes[0])
        mine = next(g for g in groups if device[axis] in g)
        return [members[p] for p in mine]

    def random_axes(self, bound):
        count = int(self.rng.integers(1, len(bound) + 1))
        return [str(a) for a in self.rng.permutation(bound)[:count]]

    def float_suffix(self):
        return "f" if self.is_float else "i"


# Each op takes the chain's value (per device: an array of the chain's
# shape) and gives a new one. `apply` evaluates it with NumPy (raising
# Rejected if a result would not be exact); `emit` writes its MLIR and
# returns the SSA name of the result.

def divide(x, y, bits, remainder):
    """Signed integer division as pcc defines it (XLA's): toward zero, x / 0
    = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0."""
    def one(a, b):
        a, b = int(a), int(b)
        if b == 0:
            return a if remainder else -1
        if a == -(1 << (bits - 1)) and b == -1:
            return 0 if remainder else a
        q = abs(a) // abs(b)
        q = -q if (a < 0) != (b < 0) else q
        return a - q * b if remainder else q
    return np.vectorize(one, otypes=[np.int64])(x, y)


class Binary:
    KINDS = ("add", "sub", "mul", "max", "min")
    INTEGER_KINDS = KINDS + ("div", "rem")

    def __init__(self, ctx, shape, constant=None):
        self.ctx, self.shape = ctx, shape
        kinds = self.KINDS if ctx.is_float else self.INTEGER_KINDS
        self.kind = str(ctx.rng.choice(kinds))
        self.constant = constant  # None: the value with itself

    def apply(self, vals):
        bits = 8 * np.dtype(DTYPES[self.ctx.elem]).itemsize
        fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
              "max": np.maximum, "min": np.minimum,
              "div": lambda x, y: divide(x, y, bits, False),
              "rem": lambda x, y: divide(x, y, bits, True)}[self.kind]
        other = vals if self.constant is None else \
            {d: np.full(self.shape, self.constant) for d in vals}
        with np.errstate(over="ignore"):
            return {d: self.ctx.exact(fn(vals[d], other[d])) for d in vals}

    def emit(self, out, indent, x, y=None):
        """x op y, where y is the constant, or `y`, or else x itself."""
        ctx = self.ctx
        ty = tensor_type(self.shape, ctx.elem)
        y = y or x
        if self.constant is not None:
            y = ctx.fresh("c")
            literal = f"{self.constant}.0" if ctx.is_float else str(self.constant)
            out.append(("  " * indent) + f"{y} = arith.constant dense<{literal}> : {ty}")
        name = {"add": "add" + ctx.float_suffix(),
                "sub": "sub" + ctx.float_suffix(),
                "mul": "mul" + ctx.float_suffix(),
                "max": "maximumf" if ctx.is_float else "maxsi",
                "min": "minimumf" if ctx.is_float else "minsi",
                "div": "divsi", "rem": "remsi"}[self.kind]
        r = ctx.fresh()
        out.append(("  " * indent) + f"{r} = arith.{name} {x}, {y} : {ty}")
        return r


class Reduction:
    def __init__(self, ctx, shape, bound):
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound)
        kinds = ["psum", "pmax", "pmin"] + (["pmean"] if ctx.is_float else [])
        self.kind = str(ctx.rng.choice(kinds))
        self.groups = ctx.random_groups(self.axes, equal=False)
        # Scalars (rank 0) go through the scalar form half of the time.
        self.scalar = not shape and bool(ctx.rng.integers(0, 2))

    def apply(self, vals):
        result = {}
        for d in vals:
            members = np.array([vals[m] for m in
                                self.ctx.members(d, self.axes, self.groups)])
            with np.errstate(over="ignore"):
                if self.kind in ("psum", "pmean"):
                    total = members.sum(axis=0, dtype=np.int64) \
                        if not self.ctx.is_float else members.sum(axis=0)
                    if self.kind == "pmean":
                        if not self.ctx.inexact and np.any(
                                total % len(members) != 0):
                            raise Rejected()
                        total = total / len(members)
                elif self.kind == "pmax":
                    total = members.max(axis=0)
                else:
                    total = members.min(axis=0)
            result[d] = self.ctx.exact(total)
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        r = ctx.fresh()
        if self.scalar:
            s, t = ctx.fresh("s"), ctx.fresh("s")
            out.append(pad + f"{s} = tensor.extract {x}[] : {ty}")
            out.append(pad + f"{t} = spmd.{self.kind} {s} over "
                       f"{axes_attr(self.axes)}{groups_attr(self.groups)} "
                       f": {ctx.elem}")
            out.append(pad + f"{r} = tensor.from_elements {t} : {ty}")
            return r
        out.append(pad + f"{r} = spmd.{self.kind} {x} over "
                   f"{axes_attr(self.axes)}{groups_attr(self.groups)} : {ty}")
        return r


class Gather:
    """all_gather at a random axis, stacked or tiled; member `pick`'s part
    is then taken back out, so that the chain keeps its shape. The gathered
    value may also be yielded as a result of its own."""

    def __init__(self, ctx, shape, bound):
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound)
        self.groups = ctx.random_groups(self.axes, equal=True)
        self.n = int(np.prod([ctx.sizes[ctx.axes.index(a)] for a in self.axes]))
        if self.groups:
            self.n = len(self.groups[0])
        self.tiled = len(shape) > 0 and bool(ctx.rng.integers(0, 2))
        self.axis = int(ctx.rng.integers(0, len(shape) + (0 if self.tiled else 1)))
        self.spell_axis = self.axis != 0 or bool(ctx.rng.integers(0, 2))
        self.pick = int(ctx.rng.integers(0, self.n))
        if self.tiled:
            self.gshape = list(shape)
            self.gshape[self.axis] *= self.n
        else:
            self.gshape = list(shape[:self.axis]) + [self.n] + list(shape[self.axis:])
        self.gathered = None  # set by apply: per-device gathered arrays
        self.yielded = bool(ctx.rng.integers(0, 4) == 0)
        self.name = None

    def apply(self, vals):
        self.gathered = {}
        result = {}
        for d in vals:
            members = [vals[m] for m in
                       self.ctx.members(d, self.axes, self.groups)]
            self.gathered[d] = np.concatenate(members, axis=self.axis) \
                if self.tiled else np.stack(members, axis=self.axis)
            result[d] = members[self.pick]
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty, gty = tensor_type(self.shape, ctx.elem), tensor_type(self.gshape, ctx.elem)
        g = self.name = ctx.fresh("g")
        attrs = (f" axis {self.axis}" if self.spell_axis else "") + \
            (" tiled" if self.tiled else "")
        out.append(pad + f"{g} = spmd.all_gather {x} over "
                   f"{axes_attr(self.axes)}{groups_attr(self.groups)}{attrs} "
                   f": {ty} -> {gty}")
        offsets = ["0"] * len(self.gshape)
        sizes = [str(s) for s in self.gshape]
        if self.tiled:
            offsets[self.axis] = str(self.pick * self.shape[self.axis])
            sizes[self.axis] = str(self.shape[self.axis])
        else:
            offsets[self.axis] = str(self.pick)
            sizes[self.axis] = "1"
        r = ctx.fresh()
        ones = ", ".join(["1"] * len(self.gshape))
        out.append(pad + f"{r} = tensor.extract_slice {g}[{', '.join(offsets)}] "
                   f"[{', '.join(sizes)}] [{ones}] : {gty} to {ty}")
        return r


class Permute:
    """ppermute (random [source, destination] pairs; the others receive
    zeros), pshuffle (a random permutation) or pbroadcast, over some axes."""

    def __init__(self, ctx, shape, bound):
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound)
        n = int(np.prod([ctx.sizes[ctx.axes.index(a)] for a in self.axes]))
        self.kind = str(ctx.rng.choice(["ppermute", "pshuffle", "pbroadcast"]))
        if self.kind == "pshuffle":
            self.perm = [int(p) for p in ctx.rng.permutation(n)]
            self.sources = self.perm
        elif self.kind == "ppermute":
            count = int(ctx.rng.integers(0, n + 1))
            sources = ctx.rng.permutation(n)[:count]
            destinations = ctx.rng.permutation(n)[:count]
            self.pairs = [(int(a), int(b)) for a, b in zip(sources, destinations)]
            self.sources = [None] * n
            for a, b in self.pairs:
                self.sources[b] = a
        else:
            self.source = int(ctx.rng.integers(0, n))
            self.sources = [self.source] * n
        self.scalar = not shape and bool(ctx.rng.integers(0, 2))

    def apply(self, vals):
        result = {}
        for d in vals:
            members = self.ctx.group(d, self.axes)
            source = self.sources[self.ctx.rank(d, self.axes)]
            result[d] = (np.zeros(self.shape, vals[d].dtype) if source is None
                         else vals[members[source]])
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        if self.kind == "pshuffle":
            attrs = " perm [" + ", ".join(map(str, self.perm)) + "]"
        elif self.kind == "ppermute":
            attrs = " perm [" + ", ".join(f"[{a}, {b}]"
                                          for a, b in self.pairs) + "]"
        else:
            attrs = f" from {self.source}"
        r = ctx.fresh()
        if self.scalar:
            s, t = ctx.fresh("s"), ctx.fresh("s")
            out.append(pad + f"{s} = tensor.extract {x}[] : {ty}")
            out.append(pad + f"{t} = spmd.{self.kind} {s} over "
                       f"{axes_attr(self.axes)}{attrs} : {ctx.elem}")
            out.append(pad + f"{r} = tensor.from_elements {t} : {ty}")
            return r
        out.append(pad + f"{r} = spmd.{self.kind} {x} over "
                   f"{axes_attr(self.axes)}{attrs} : {ty}")
        return r


class Scatter:
    """psum_scatter or all_to_all of z, where z[j] = x[member j] + x on each
    device (an all_gather and a broadcast): psum_scatter gives member r the
    sum over m of x[r] + x[m]; all_to_all gives it x[r] + x[m] at row m, of
    which row `pick` goes on."""

    def __init__(self, ctx, shape, bound):
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound)
        self.kind = str(ctx.rng.choice(["psum_scatter", "all_to_all"]))
        self.groups = ctx.random_groups(self.axes, equal=True)
        self.n = int(np.prod([ctx.sizes[ctx.axes.index(a)] for a in self.axes]))
        if self.groups:
            self.n = len(self.groups[0])
        self.pick = int(ctx.rng.integers(0, self.n))

    def apply(self, vals):
        result = {}
        for d in vals:
            members = self.ctx.members(d, self.axes, self.groups)
            with np.errstate(over="ignore"):
                rows = [self.ctx.exact(vals[d] + vals[m]) for m in members]
                if self.kind == "psum_scatter":
                    total = (np.sum(rows, axis=0, dtype=np.int64)
                             if not self.ctx.is_float else np.sum(rows, axis=0))
                    result[d] = self.ctx.exact(total)
                else:
                    result[d] = rows[self.pick]
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        gshape = [self.n] + list(self.shape)
        ty, gty = tensor_type(self.shape, ctx.elem), tensor_type(gshape, ctx.elem)
        axes = axes_attr(self.axes) + groups_attr(self.groups)
        g, e, b, z, r = (ctx.fresh("z") for _ in range(5))
        out.append(pad + f"{g} = spmd.all_gather {x} over {axes} : {ty} -> {gty}")
        out.append(pad + f"{e} = tensor.empty() : {gty}")
        out.append(pad + f"{b} = linalg.broadcast ins({x} : {ty}) outs({e} : "
                   f"{gty}) dimensions = [0]")
        out.append(pad + f"{z} = arith.add{ctx.float_suffix()} {g}, {b} : {gty}")
        if self.kind == "psum_scatter":
            out.append(pad + f"{r} = spmd.psum_scatter {z} over {axes} : "
                       f"{gty} -> {ty}")
            return r
        a = ctx.fresh("z")
        out.append(pad + f"{a} = spmd.all_to_all {z} over {axes} split 0 "
                   f"concat 0 : {gty} -> {gty}")
        offsets = [str(self.pick)] + ["0"] * len(self.shape)
        sizes = ["1"] + [str(n) for n in self.shape]
        ones = ", ".join(["1"] * len(gshape))
        out.append(pad + f"{r} = tensor.extract_slice {a}[{', '.join(offsets)}] "
                   f"[{', '.join(sizes)}] [{ones}] : {gty} to {ty}")
        return r


class AxisIndex:
    """Adds the device's index over some axes."""

    def __init__(self, ctx, shape, bound):
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound)

    def apply(self, vals):
        with np.errstate(over="ignore"):
            return {d: self.ctx.exact(vals[d] + self.ctx.rank(d, self.axes))
                    for d in vals}

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        k, i, s, e, f, r = (ctx.fresh("k") for _ in range(6))
        out.append(pad + f"{k} = spmd.axis_index {axes_attr(self.axes)} : index")
        out.append(pad + f"{i} = arith.index_cast {k} : index to i64")
        if ctx.is_float:
            out.append(pad + f"{s} = arith.sitofp {i} : i64 to {ctx.elem}")
        elif ctx.elem == "i64":
            s = i
        else:
            out.append(pad + f"{s} = arith.trunci {i} : i64 to {ctx.elem}")
        out.append(pad + f"{e} = tensor.empty() : {ty}")
        out.append(pad + f"{f} = linalg.fill ins({s} : {ctx.elem}) outs({e} : {ty}) -> {ty}")
        out.append(pad + f"{r} = arith.add{ctx.float_suffix()} {x}, {f} : {ty}")
        return r


class ReduceAll:
    """Sums or maxes every element with linalg.reduce, then fills the shape
    with the result."""

    def __init__(self, ctx, shape):
        if not shape:
            raise Rejected()
        self.ctx, self.shape = ctx, shape
        self.kind = str(ctx.rng.choice(["sum", "max"]))

    def apply(self, vals):
        result = {}
        for d in vals:
            with np.errstate(over="ignore"):
                total = (vals[d].sum(dtype=np.int64) if not self.ctx.is_float
                         else vals[d].sum()) if self.kind == "sum" else vals[d].max()
            result[d] = self.ctx.exact(np.full(self.shape, total))
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty, sty = tensor_type(self.shape, ctx.elem), tensor_type((), ctx.elem)
        if self.kind == "sum":
            init = "0.0" if ctx.is_float else "0"
            op = "arith.add" + ctx.float_suffix()
        else:
            init = "-1.0e+30" if ctx.is_float else str(np.iinfo(DTYPES[ctx.elem]).min)
            if ctx.elem == "f16":
                init = "-6.0e+04"
            op = "arith.maximumf" if ctx.is_float else "arith.maxsi"
        c, acc, s, e, r = (ctx.fresh("r") for _ in range(5))
        n = ctx.counter
        dims = ", ".join(str(i) for i in range(len(self.shape)))
        out.append(pad + f"{c} = arith.constant dense<{init}> : {sty}")
        out.append(pad + f"{acc} = linalg.reduce ins({x} : {ty}) outs({c} : {sty}) "
                   f"dimensions = [{dims}]")
        out.append(pad + f"  (%in{n}: {ctx.elem}, %acc{n}: {ctx.elem}) {{")
        out.append(pad + f"    %sum{n} = {op} %in{n}, %acc{n} : {ctx.elem}")
        out.append(pad + f"    linalg.yield %sum{n} : {ctx.elem}")
        out.append(pad + "  }")
        out.append(pad + f"{s} = tensor.extract {acc}[] : {sty}")
        out.append(pad + f"{e} = tensor.empty() : {ty}")
        out.append(pad + f"{r} = linalg.fill ins({s} : {ctx.elem}) outs({e} : {ty}) -> {ty}")
        return r


class Loop:
    """scf.for with a constant trip count (0 to 3) carrying the value."""

    def __init__(self, ctx, shape, bound, depth):
        self.ctx, self.shape = ctx, shape
        self.trips = int(ctx.rng.integers(0, 4))
        self.body = Chain(ctx, shape, bound, int(ctx.rng.integers(1, 3)), depth + 1)

    def apply(self, vals):
        # The body is built against the first step's values; every step must
        # be exact too.
        self.body.build(vals)
        for _ in range(self.trips):
            vals = self.body.apply(vals)
        return vals

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        lo, hi, one, k, acc, r = (ctx.fresh("l") for _ in range(6))
        out.append(pad + f"{lo} = arith.constant 0 : index")
        out.append(pad + f"{hi} = arith.constant {self.trips} : index")
        out.append(pad + f"{one} = arith.constant 1 : index")
        out.append(pad + f"{r} = scf.for {k} = {lo} to {hi} step {one} "
                   f"iter_args({acc} = {x}) -> ({ty}) {{")
        y = self.body.emit(out, indent + 1, acc)
        out.append(pad + f"  scf.yield {y} : {ty}")
        out.append(pad + "}")
        return r


class Branch:
    """scf.if on a condition every device computes alike: a constant, or the
    sum over every axis in scope of the value's first element."""

    def __init__(self, ctx, shape, bound, depth):
        self.ctx, self.shape, self.bound = ctx, shape, list(bound)
        self.constant = bool(ctx.rng.integers(0, 2))
        self.flag = bool(ctx.rng.integers(0, 2))
        self.then = Chain(ctx, shape, bound, int(ctx.rng.integers(1, 3)), depth + 1)
        self.other = Chain(ctx, shape, bound, int(ctx.rng.integers(0, 2)), depth + 1)

    def apply(self, vals):
        first = tuple(0 for _ in self.shape)
        taken = {}
        for d in vals:
            if self.constant:
                taken[d] = self.flag
                continue
            members = [vals[m][first] for m in self.ctx.group(d, self.bound)]
            with np.errstate(over="ignore"):
                total = self.ctx.exact(np.sum(members, dtype=np.int64)
                                       if not self.ctx.is_float else np.sum(members))
            taken[d] = bool(total > 0)
        self.then.build(vals)
        self.other.build(vals)
        then_vals, other_vals = self.then.apply(vals), self.other.apply(vals)
        return {d: then_vals[d] if taken[d] else other_vals[d] for d in vals}

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        cond, r = ctx.fresh("b"), ctx.fresh("b")
        if self.constant:
            out.append(pad + f"{cond} = arith.constant {str(self.flag).lower()}")
        else:
            s, t, z = ctx.fresh("b"), ctx.fresh("b"), ctx.fresh("b")
            index = ", ".join("%c0" for _ in self.shape)
            out.append(pad + f"{s} = tensor.extract {x}[{index}] : {ty}")
            out.append(pad + f"{t} = spmd.psum {s} over {axes_attr(self.bound)} : {ctx.elem}")
            out.append(pad + f"{z} = arith.constant {'0.0' if ctx.is_float else '0'} : {ctx.elem}")
            cmp = "arith.cmpf ogt" if ctx.is_float else "arith.cmpi sgt"
            out.append(pad + f"{cond} = {cmp}, {t}, {z} : {ctx.elem}")
        out.append(pad + f"{r} = scf.if {cond} -> ({ty}) {{")
        y = self.then.emit(out, indent + 1, x)
        out.append(pad + f"  scf.yield {y} : {ty}")
        out.append(pad + "} else {")
        y = self.other.emit(out, indent + 1, x)
        out.append(pad + f"  scf.yield {y} : {ty}")
        out.append(pad + "}")
        return r


# Names of user functions: what libc, libm and the compiler's runtime call
# themselves, which must not capture the calls pcc's generated code makes.
HOSTILE_NAMES = ("memcpy", "memset", "memmove", "malloc", "free", "calloc",
                 "expf", "exp", "sqrtf", "powf", "printf", "abort", "exit",
                 "pthread_create", "__truncsfbf2", "fma", "main_", "f")


class Call:
    """Calls a function of the program (named like a libc, libm or runtime
    function) whose body is a chain of elementwise ops; functions may call
    the ones defined before them."""

    def __init__(self, ctx, shape):
        self.ctx, self.shape = ctx, shape
        self.body = Chain(ctx, shape, [], int(ctx.rng.integers(1, 3)), depth=2,
                          local=True)
        self.callee = None  # an earlier function this one calls, if any
        same = [f for f in ctx.functions if f.shape == shape]
        if same and ctx.rng.integers(0, 2):
            self.callee = same[int(ctx.rng.integers(0, len(same)))]
        base = str(ctx.rng.choice(HOSTILE_NAMES))
        self.name = base if base not in ctx.function_names else \
            f"{base}_{len(ctx.function_names)}"
        ctx.function_names.add(self.name)

    def apply(self, vals):
        self.body.build(vals)
        vals = self.body.apply(vals)
        if self.callee is not None:
            vals = self.callee.apply(vals)
        if self not in self.ctx.functions:
            self.ctx.functions.append(self)
        return vals

    def define(self):
        """The function's text, at module level."""
        ctx = self.ctx
        ty = tensor_type(self.shape, ctx.elem)
        out = [f"func.func @{self.name}(%p: {ty}) -> {ty} {{"]
        y = self.body.emit(out, 1, "%p")
        if self.callee is not None:
            r = ctx.fresh()
            out.append(f"  {r} = func.call @{self.callee.name}({y}) : ({ty}) -> {ty}")
            y = r
        out.append(f"  return {y} : {ty}")
        out.append("}")
        return out

    def emit(self, out, indent, x):
        ctx = self.ctx
        ty = tensor_type(self.shape, ctx.elem)
        r = ctx.fresh()
        out.append(("  " * indent) + f"{r} = func.call @{self.name}({x}) : ({ty}) -> {ty}")
        return r


class DynamicIndex:
    """y = x; y[k, 0...] = x[j, 0...] with indices computed at run time from
    the device's position (tensor.extract and tensor.insert at dynamic
    indices). With `out_of_bounds`, j is past the end on every device: the
    run must end with pcc's located error, as NumPy raises IndexError."""

    def __init__(self, ctx, shape, bound, out_of_bounds=False):
        if not shape:
            raise Rejected()
        self.ctx, self.shape = ctx, shape
        self.axes = ctx.random_axes(bound) if bound else []
        self.shift = int(ctx.rng.integers(0, 5))
        self.out_of_bounds = out_of_bounds

    def indices(self, d):
        rank = self.ctx.rank(d, self.axes) if self.axes else 0
        j = (rank + self.shift) % self.shape[0]
        if self.out_of_bounds:
            j = self.shape[0] + rank
        return j, (rank + 1) % self.shape[0]

    def apply(self, vals):
        result = {}
        for d in vals:
            j, k = self.indices(d)
            if self.out_of_bounds:
                raise IndexError("planned")
            y = vals[d].copy()
            y[(k,) + (0,) * (len(self.shape) - 1)] = \
                vals[d][(j,) + (0,) * (len(self.shape) - 1)]
            result[d] = y
        return result

    def emit(self, out, indent, x):
        ctx, pad = self.ctx, "  " * indent
        ty = tensor_type(self.shape, ctx.elem)
        rank, shift, size, one, j, jm, k, e, r = (ctx.fresh("d") for _ in range(9))
        if self.axes:
            out.append(pad + f"{rank} = spmd.axis_index {axes_attr(self.axes)} : index")
        else:
            out.append(pad + f"{rank} = arith.constant 0 : index")
        out.append(pad + f"{shift} = arith.constant {self.shift} : index")
        out.append(pad + f"{size} = arith.constant {self.shape[0]} : index")
        out.append(pad + f"{one} = arith.constant 1 : index")
        if self.out_of_bounds:
            out.append(pad + f"{jm} = arith.addi {rank}, {size} : index")
        else:
            out.append(pad + f"{j} = arith.addi {rank}, {shift} : index")
            out.append(pad + f"{jm} = arith.remui {j}, {size} : index")
        out.append(pad + f"{k} = arith.addi {rank}, {one} : index")
        km = ctx.fresh("d")
        out.append(pad + f"{km} = arith.remui {k}, {size} : index")
        zero = ctx.fresh("d")
        out.append(pad + f"{zero} = arith.constant 0 : index")
        zeros = f", {zero}" * (len(self.shape) - 1)
        out.append(pad + f"{e} = tensor.extract {x}[{jm}{zeros}] : {ty}")
        out.append(pad + f"{r} = tensor.insert {e} into {x}[{km}{zeros}] : {ty}")
        return r


class Chain:
    """A sequence of ops on one value; built op by op against the values it
    will see, so that every op it keeps is exact."""

    def __init__(self, ctx, shape, bound, length, depth=0, local=False):
        self.ctx, self.shape, self.bound = ctx, shape, bound
        self.length, self.depth = length, depth
        # A function's body: no collectives, which need a pmap around them.
        self.local = local
        self.ops = None

    def new_op(self):
        ctx, shape, bound = self.ctx, self.shape, self.bound
        if self.local:
            kinds = ["binary", "constant", "reduce_all", "dynamic_index"]
            weights = [3, 2, 1, 1]
        else:
            kinds = ["binary", "constant", "reduction", "gather", "axis_index",
                     "reduce_all", "dynamic_index", "call", "permute",
                     "scatter"]
            weights = [3, 2, 4, 2, 1, 1, 1, 1, 2, 2]
        if self.depth < 2:
            kinds += ["loop", "branch"]
            weights += [1, 1]
        kind = ctx.rng.choice(kinds, p=np.array(weights) / sum(weights))
        ctx.kinds.add(str(kind))
        if kind == "binary":
            return Binary(ctx, shape)
        if kind == "constant":
            return Binary(ctx, shape, int(ctx.rng.integers(-3, 4)))
        if kind == "reduction":
            return Reduction(ctx, shape, bound)
        if kind == "gather":
            return Gather(ctx, shape, bound)
        if kind == "permute":
            return Permute(ctx, shape, bound)
        if kind == "scatter":
            return Scatter(ctx, shape, bound)
        if kind == "axis_index":
            return AxisIndex(ctx, shape, bound)
        if kind == "reduce_all":
            return ReduceAll(ctx, shape)
        if kind == "dynamic_index":
            return DynamicIndex(ctx, shape, bound)
        if kind == "call":
            return Call(ctx, shape)
        if kind == "loop":
            return Loop(ctx, shape, bound, self.depth)
        return Branch(ctx, shape, bound, self.depth)

    def build(self, vals):
        if self.ops is not None:
            return
        self.ops = []
        for _ in range(self.length):
            for _attempt in range(30):
                try:
                    op = self.new_op()
                    vals = op.apply(vals)
                except Rejected:
                    continue
                self.ops.append(op)
                break

    def apply(self, vals):
        for op in self.ops:
            vals = op.apply(vals)
        return vals

    def emit(self, out, indent, x):
        for op in self.ops:
            x = op.emit(out, indent, x)
        return x

    def gathers(self):
        """The gathers of this chain (not of its loops and branches, whose
        values do not leave them) to yield as results of their own."""
        return [op for op in self.ops if isinstance(op, Gather) and op.yielded]


def generate(seed):
    """One program: (text, inputs, expected results), all NumPy arrays."""
    rng = np.random.default_rng(seed)
    while True:
        ctx = Context(rng)
        try:
            return build_program(ctx)
        except Rejected:
            continue


def build_program(ctx):
    rank = int(ctx.rng.integers(0, 3))
    shape = tuple(int(ctx.rng.integers(1, 4)) for _ in range(rank))
    elem, io = ctx.elem, ("f32" if ctx.elem == "bf16" else ctx.elem)
    sizes, axes, depth = ctx.sizes, ctx.axes, len(ctx.sizes)
    full = tuple(sizes) + shape
    x = ctx.random_values(full)
    vals = {d: ctx.exact(x[d]) for d in ctx.devices}

    # An outer chain (over the outer axis only), whose result the innermost
    # body reads back at its own coordinates (a captured value): only with
    # nested pmaps.
    outer = None
    if depth > 1 and ctx.rng.integers(0, 2):
        outer_shape = tuple(sizes[1:]) + shape
        outer_vals = {d: ctx.exact(x[d[:1]]) for d in ctx.devices}
        outer = Chain(ctx, outer_shape, axes[:1], int(ctx.rng.integers(1, 3)), 1)
        outer.build(outer_vals)
        outer_vals = outer.apply(outer_vals)
        captured = {d: outer_vals[d][tuple(d[1:])] for d in ctx.devices}
    inner = Chain(ctx, shape, axes, int(ctx.rng.integers(2, 7)))
    inner.build(vals)
    result = inner.apply(vals)
    # An index past the end on every device, after the chain: the run ends
    # with pcc's error (NumPy's IndexError).
    bad_index = None
    if ctx.expect_error:
        if not shape:
            ctx.expect_error = False
        else:
            bad_index = DynamicIndex(ctx, shape, axes, out_of_bounds=True)
    if outer is not None:
        combine = Binary(ctx, shape)
        combine.kind = str(ctx.rng.choice(["add", "max", "min"]))
        with np.errstate(over="ignore"):
            fn = {"add": np.add, "max": np.maximum, "min": np.minimum}[combine.kind]
            result = {d: ctx.exact(fn(result[d], captured[d])) for d in ctx.devices}

    # The text. Values are computed in `elem`; bf16 programs convert the
    # f32 input and result at the edges.
    out = []
    full_ty, io_full_ty = tensor_type(full, elem), tensor_type(full, io)
    gathers = inner.gathers()
    results = [(tensor_type(full, io), shape)]
    for g in gathers:
        results.append((tensor_type(tuple(sizes) + tuple(g.gshape), io), tuple(g.gshape)))
    # Sometimes the main result is returned twice: each position is a
    # result of its own.
    if ctx.rng.integers(0, 4) == 0:
        ctx.kinds.add("repeated result")
    returned = results + results[:1] if "repeated result" in ctx.kinds else results
    out.append(f"func.func @main(%arg0: {io_full_ty}) -> "
               f"({', '.join(t for t, _ in returned)}) {{")
    source = "%arg0"
    if elem == "bf16":
        out.append(f"  %in = arith.truncf %arg0 : {io_full_ty} to {full_ty}")
        source = "%in"
    out.append("  %c0 = arith.constant 0 : index")
    names = [f"%x{level}" for level in range(depth)]
    for level in range(depth):
        level_shape = tuple(sizes[level:]) + shape
        level_results = [tensor_type(tuple(sizes[level:]) + rshape, elem)
                         for _, rshape in results]
        operand = source if level == 0 else names[level - 1]
        pad = "  " * (level + 1)
        results_text = ", ".join(level_results)
        lhs = ", ".join(f"%r{level}_{i}" for i in range(len(results)))
        out.append(f"{pad}{lhs} = spmd.pmap \"{axes[level]}\" ({names[level]} = "
                   f"{operand} : {tensor_type(level_shape, elem)}) -> ({results_text}) {{")
        if level == 0 and outer is not None:
            outer_value = outer.emit(out, level + 2, names[0])
    pad = "  " * (depth + 1)
    value = inner.emit(out, depth + 1, names[depth - 1])
    if bad_index is not None:
        value = bad_index.emit(out, depth + 1, value)
    if outer is not None:
        # The outer value at this device's inner coordinates.
        idx = [f"%ix{level}" for level in range(1, depth)]
        for level in range(1, depth):
            out.append(f"{pad}%ix{level} = spmd.axis_index \"{axes[level]}\" : index")
        outer_ty = tensor_type(tuple(sizes[1:]) + shape, elem)
        offsets = idx + ["0"] * len(shape)
        sizes_text = ["1"] * (depth - 1) + [str(s) for s in shape]
        ones = ", ".join(["1"] * (depth - 1 + len(shape)))
        out.append(f"{pad}%cap = tensor.extract_slice {outer_value}[{', '.join(offsets)}] "
                   f"[{', '.join(sizes_text)}] [{ones}] : {outer_ty} to "
                   f"{tensor_type(shape, elem)}")
        value = combine.emit(out, depth + 1, value, "%cap")
    yielded = [value] + [g.name for g in gathers]
    types = [tensor_type(shape, elem)] + [tensor_type(tuple(g.gshape), elem) for g in gathers]
    for level in reversed(range(depth)):
        pad = "  " * (level + 2)
        out.append(f"{pad}spmd.yield {', '.join(yielded)} : {', '.join(types)}")
        out.append("  " * (level + 1) + "}")
        yielded = [f"%r{level}_{i}" for i in range(len(results))]
        types = [tensor_type(tuple(sizes[level:]) + rshape, elem) for _, rshape in results]
    if elem == "bf16":
        converted = []
        for i, (t, _) in enumerate(results):
            out.append(f"  %out{i} = arith.extf {yielded[i]} : {types[i]} to {t}")
            converted.append(f"%out{i}")
        yielded = converted
    yielded += yielded[:len(returned) - len(results)]
    out.append(f"  return {', '.join(yielded)} : {', '.join(t for t, _ in returned)}")
    out.append("}")
    for function in ctx.functions:
        out += function.define()

    # Expected results, stacked in device order.
    np_type = DTYPES[elem]
    expected = [np.array([result[d] for d in ctx.devices]).reshape(full).astype(np_type)]
    for g in gathers:
        expected.append(np.array([g.gathered[d] for d in ctx.devices]).reshape(
            tuple(sizes) + tuple(g.gshape)).astype(np_type))
    expected += expected[:len(returned) - len(results)]
    inputs = [x.astype(np_type)]
    return "\n".join(out) + "\n", inputs, expected, ctx


def one_line(text):
    """A program's messages on one line, for a finding."""
    return " / ".join(line.strip() for line in text.strip().splitlines())[:400]


def check_run(command, env, directory, expected, label, exact=True):
    """Runs one configuration; returns None, or what went wrong. Without
    `exact`, only the results' types and shapes are compared with NumPy's;
    their bits are compared between configurations (compare_runs)."""
    saved = os.path.join(directory, label)
    try:
        done = subprocess.run(LAUNCHER + command + [f"--save-results={saved}"],
                              env={**os.environ, **env}, capture_output=True,
                              text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "timed out"
    except OSError as error:
        return f"could not run: {error}"
    if "Sanitizer" in done.stderr:
        return f"sanitizer report: {one_line(done.stderr)}"
    if (LAUNCHER and done.returncode == 1 and not done.stdout and
            "do not split over" in done.stderr):
        return "skip"
    if expected is None:
        if done.returncode != 1 or "is out of bounds for axis" not in done.stderr:
            return (f"expected pcc's out-of-bounds error, got exit status "
                    f"{done.returncode}: {one_line(done.stderr)}")
        return None
    if done.returncode != 0:
        return f"exit status {done.returncode}: {one_line(done.stderr)}"
    for index, want in enumerate(expected):
        path = os.path.join(saved, f"result{index}.npy")
        if not os.path.exists(path):
            return f"result {index} was not saved"
        got = np.load(path)
        if got.dtype != want.dtype or got.shape != want.shape:
            return (f"result {index}: {got.dtype}{list(got.shape)} where NumPy "
                    f"gives {want.dtype}{list(want.shape)}")
        if exact and got.tobytes() != want.tobytes():
            wrong = np.argwhere(got != want)
            where = tuple(int(i) for i in wrong[0]) if len(wrong) else "?"
            return (f"result {index} differs at {where}: "
                    f"{got[where] if wrong.size else got} where NumPy gives "
                    f"{want[where] if wrong.size else want}")
    return None


def compare_runs(directory, count, backend):
    """Findings where a configuration's results differ in any bit from the
    default configuration's."""
    labels = list(PLACEMENTS[backend]) + ["compiled"]
    findings = []
    for index in range(count):
        first = np.load(os.path.join(directory, labels[0], f"result{index}.npy"))
        for label in labels[1:]:
            other = np.load(os.path.join(directory, label, f"result{index}.npy"))
            if other.tobytes() != first.tobytes():
                findings.append(f"{label}: result {index} differs in its bits "
                                f"from pcc run ({labels[0]})")
    return findings


def check_program(pcc, seed, keep, backend):
    """Generates program `seed` and runs it in every configuration.
    Returns (seed, element type, devices, findings)."""
    text, inputs, expected, ctx = generate(seed)
    directory = tempfile.mkdtemp(prefix=f"pcc-random-{seed}-", dir=keep)
    program = os.path.join(directory, "program.mlir")
    with open(program, "w") as f:
        f.write(text)
    args = []
    for index, array in enumerate(inputs):
        path = os.path.join(directory, f"arg{index}.npy")
        np.save(path, array)
        args.append(path)
    findings = []
    exact = not ctx.inexact
    if ctx.expect_error:
        expected = None
    skipped = False
    for label, (env, flags) in PLACEMENTS[backend].items():
        problem = check_run([pcc, "run", program] + args + flags, env,
                            directory, expected, label, exact)
        skipped = skipped or problem == "skip"
        if problem and problem != "skip":
            findings.append(f"pcc run ({label}): {problem}")
    executable = os.path.join(directory, "program")
    try:
        compiled = subprocess.run([pcc, "compile", program, "-o", executable,
                                   f"--backend={backend}"],
                                  capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as error:
        compiled = subprocess.CompletedProcess([], 1, "", str(error))
    if compiled.returncode != 0:
        findings.append(f"pcc compile: exit status {compiled.returncode}: "
                        f"{one_line(compiled.stderr)}")
    else:
        problem = check_run([executable] + args, {}, directory, expected,
                            "compiled", exact)
        skipped = skipped or problem == "skip"
        if problem and problem != "skip":
            findings.append(f"compiled: {problem}")
    if skipped and not findings:
        # Every run must then have failed alike, saving nothing.
        saved = [label for label in list(PLACEMENTS[backend]) + ["compiled"]
                 if os.path.exists(os.path.join(directory, label))]
        if saved:
            findings.append(f"devices that do not split over the processes, "
                            f"yet {', '.join(saved)} saved results")
    elif not exact and not findings and expected is not None:
        findings += compare_runs(directory, len(expected), backend)
    if not findings and keep is None:
        for root, dirs, files in os.walk(directory, topdown=False):
            for name in files:
                os.remove(os.path.join(root, name))
            for name in dirs:
                os.rmdir(os.path.join(root, name))
        os.rmdir(directory)
    features = {"devices that do not split (skipped)": skipped,
                "out-of-bounds": ctx.expect_error,
                "calls": bool(ctx.functions),
                "dynamic indices": "dynamic_index" in ctx.kinds,
                "a result returned twice": "repeated result" in ctx.kinds}
    return (seed, ctx.elem, ctx.inexact, len(ctx.devices), features, findings,
            directory)


def main():
    # Integers wrap and arbitrary floats overflow on purpose.
    np.seterr(all="ignore")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pcc")
    parser.add_argument("--seed", type=int, default=1,
                        help="the first program's seed (programs are "
                             "seed, seed+1, ...)")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", help="keep every program's folder in DIR "
                                       "(failing ones are always kept)")
    parser.add_argument("--minutes", type=float,
                        help="stop starting programs after this long (the "
                             "summary counts those run)")
    parser.add_argument("--backend", choices=sorted(PLACEMENTS),
                        default="cpu",
                        help="the backend whose configurations run each "
                             "program (default cpu)")
    parser.add_argument("--processes", type=int, default=1,
                        help="run on this many processes under mpirun")
    parser.add_argument("--print", action="store_true",
                        help="print program --seed and its expected results")
    options = parser.parse_args()
    if options.print:
        text, inputs, expected, _ = generate(options.seed)
        print(text)
        for index, array in enumerate(inputs):
            print(f"// arg{index}:", array.tolist())
        for index, array in enumerate(expected):
            print(f"// result{index}:", array.tolist())
        return 0
    if options.processes > 1:
        LAUNCHER[:] = [os.path.join(ROOT, "scripts", "mpirun.sh"),
                       "-np", str(options.processes)]
    if options.keep:
        os.makedirs(options.keep, exist_ok=True)
    deadline = time.monotonic() + 60 * options.minutes \
        if options.minutes else None

    def seeds():
        for seed in range(options.seed, options.seed + options.count):
            if deadline is not None and time.monotonic() > deadline:
                return
            yield seed
    failed = ran = 0
    elems, devices, inexact, featured = {}, 0, 0, {}
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        # Submitted a few at a time, so that --minutes stops soon after.
        pending = set()
        results = []
        for seed in seeds():
            pending.add(pool.submit(check_program, options.pcc, seed,
                                    options.keep, options.backend))
            if len(pending) >= 2 * options.jobs:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                results += [f.result() for f in done]
        results += [f.result() for f in pending]
        for seed, elem, arbitrary, n, features, findings, directory in sorted(
                results):
            ran += 1
            elems[elem] = elems.get(elem, 0) + 1
            inexact += arbitrary
            for feature, present in features.items():
                featured[feature] = featured.get(feature, 0) + present
            devices = max(devices, n)
            if findings:
                failed += 1
                print(f"program {seed} ({elem}, {n} devices, kept in "
                      f"{directory}):")
                for finding in findings:
                    print(f"  {finding}")
    configurations = len(PLACEMENTS[options.backend]) + 1
    print(f"random programs: {ran} from seed {options.seed} on "
          f"{options.backend}"
          + (f" on {options.processes} processes" if LAUNCHER else "") + ", "
          f"{configurations} configurations each, up to {devices} devices; "
          + ", ".join(f"{k} {v}" for k, v in sorted(elems.items()))
          + f"; {inexact} with arbitrary floats, compared between "
            "configurations; "
          + ", ".join(f"{v} with {k}" for k, v in featured.items()))
    print(f"random programs: {ran - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
