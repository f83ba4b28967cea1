"""psum, pmax and pmin of long messages (32 KiB and more per device) on
several processes, whose processes each reduce a slice of the message and
share it, and an all_gather of one whose devices in each process share out
the writing: every result element must equal NumPy's, combined in device
order, bit for bit, whatever the number of processes. Each device adds its
own input to the result, so that each device's output is its own (a result
the same on every device is shared between processes from any one of
them, which would hide a device's wrong copy).

usage: long_reductions.py PCC WORKDIR   (MPIRUN: the launcher's command)

The result of each run is read back from --save-results, whole (printing
would show only its corners).
"""

import os
import shlex
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "pcc",
                                "Inputs"))
from oracle import DTYPES, accumulate, random_array, shape_str  # noqa: E402
from mpi_runs import report, run_saved  # noqa: E402

MNEMONIC = {"sum": "psum", "max": "pmax", "min": "pmin"}


def add(elem):
    return "arith.addi" if elem in ("i8", "i16", "i32", "i64") else "arith.addf"


def plus_input(total, x):
    """What each device yields: the collective's result plus its input."""
    with np.errstate(over="ignore"):
        return (total[None] + x).astype(x.dtype)


def flat_program(op, elem, devices, count):
    full, one = shape_str((devices, count), elem), shape_str((count,), elem)
    return f"""
func.func @main(%a: {full}) -> {full} {{
  %r = spmd.pmap "i" (%x = %a : {full}) -> ({full}) {{
    %s = spmd.{MNEMONIC[op]} %x over "i" : {one}
    %y = {add(elem)} %s, %x : {one}
    spmd.yield %y : {one}
  }}
  return %r : {full}
}}
"""


def grid_program(op, elem, rows, cols, count):
    """A reduction over the outer axis of a rows x cols grid: cols groups at
    once, each spanning the processes (which split the rows)."""
    full = shape_str((rows, cols, count), elem)
    row = shape_str((cols, count), elem)
    one = shape_str((count,), elem)
    return f"""
func.func @main(%a: {full}) -> {full} {{
  %r = spmd.pmap "i" (%y = %a : {full}) -> ({full}) {{
    %t = spmd.pmap "j" (%x = %y : {row}) -> ({row}) {{
      %s = spmd.{MNEMONIC[op]} %x over "i" : {one}
      %z = {add(elem)} %s, %x : {one}
      spmd.yield %z : {one}
    }}
    spmd.yield %t : {row}
  }}
  return %r : {full}
}}
"""


def groups_program(op, elem, groups, count):
    devices = sum(len(g) for g in groups)
    full, one = shape_str((devices, count), elem), shape_str((count,), elem)
    attr = " groups [" + ", ".join(
        "[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
    return f"""
func.func @main(%a: {full}) -> {full} {{
  %r = spmd.pmap "i" (%x = %a : {full}) -> ({full}) {{
    %s = spmd.{MNEMONIC[op]} %x over "i"{attr} : {one}
    %y = {add(elem)} %s, %x : {one}
    spmd.yield %y : {one}
  }}
  return %r : {full}
}}
"""


def gather_program(elem, devices, count):
    full, one = shape_str((devices, count), elem), shape_str((count,), elem)
    out = shape_str((devices, devices * count), elem)
    whole = shape_str((devices * count,), elem)
    return f"""
func.func @main(%a: {full}) -> {out} {{
  %r = spmd.pmap "i" (%x = %a : {full}) -> ({out}) {{
    %g = spmd.all_gather %x over "i" tiled : {one} -> {whole}
    spmd.yield %g : {whole}
  }}
  return %r : {out}
}}
"""


def cases():
    """(name, processes, program, input, expected)."""
    flat = [
        # op, elem, devices, count, processes
        ("sum", "f32", 2, 8193, 2),     # 32 KiB and an odd element
        ("sum", "f32", 2, 300001, 2),   # past 1 MiB: streamed stores
        ("sum", "f32", 8, 300001, 2),   # 4 devices here claim blocks
        ("sum", "f64", 4, 5003, 2),
        ("sum", "f64", 4, 5003, 4),
        ("sum", "f16", 8, 20001, 4),
        ("sum", "i32", 8, 9000, 2),
        ("sum", "i8", 4, 70000, 4),
        ("max", "i64", 2, 6000, 2),
        ("min", "f32", 8, 12345, 2),
        ("max", "f16", 4, 40000, 2),
    ]
    for op, elem, devices, count, processes in flat:
        x = random_array((devices, count), elem)
        total = accumulate(list(x), elem, op)
        yield (f"{MNEMONIC[op]}-{elem}-n{devices}-{count}-p{processes}",
               processes, flat_program(op, elem, devices, count), x,
               plus_input(total, x))
    rows, cols, count = 4, 2, 9001
    x = random_array((rows, cols, count), "f32")
    total = accumulate(list(x), "f32", "sum")
    yield (f"psum-grid-{rows}x{cols}-{count}-p2", 2,
           grid_program("sum", "f32", rows, cols, count), x,
           plus_input(total, x))
    devices, count = 8, 300001   # past 1 MiB: claimed blocks, 4 per process
    x = random_array((devices, count), "f32")
    yield (f"all_gather-n{devices}-{count}-p2", 2,
           gather_program("f32", devices, count), x,
           np.broadcast_to(x.reshape(-1), (devices, devices * count)))
    groups, count = [[0, 2], [1, 3]], 10007
    x = random_array((4, count), "f64")
    expected = np.empty_like(x)
    for g in groups:
        total = accumulate([x[d] for d in g], "f64", "sum")
        for d in g:
            expected[d] = total + x[d]
    yield (f"psum-groups-{count}-p2", 2,
           groups_program("sum", "f64", groups, count), x, expected)


def main():
    pcc, workdir = sys.argv[1], sys.argv[2]
    launcher = shlex.split(os.environ["MPIRUN"])
    os.makedirs(workdir, exist_ok=True)
    passed, failures = 0, []
    for name, processes, program, x, expected in cases():
        results, error = run_saved(launcher, pcc, workdir, name, processes,
                                   program, x)
        if error:
            failures.append(f"FAIL {name}: {error}")
            continue
        got = results[0]
        # Bit for bit: NaN-free inputs, so equal views mean equal bits.
        same = (got.dtype == expected.dtype and got.shape == expected.shape
                and np.array_equal(got.view(np.uint8),
                                   np.ascontiguousarray(expected)
                                   .view(np.uint8)))
        if same:
            passed += 1
        else:
            wrong = np.flatnonzero(got.reshape(-1) != expected.reshape(-1))
            failures.append(f"FAIL {name}: {wrong.size} elements differ, "
                            f"first at {wrong[:5]}")
    return report("long reductions", passed, failures)


if __name__ == "__main__":
    sys.exit(main())
