"""Uniform pmap outputs (psum's, all_gather's) that are the entry's results
and that nothing else reads: on several processes, each process fills the
other processes' slices only when the host takes the results, once after
all runs. Each case runs with --repeat and --rotate (several runs, into
several sets of buffers), and its result, read back from --save-results,
must be NumPy's bit for bit: a slice left unfilled, or filled from another
run's buffer, shows. Beside them, outputs that the program also reads (filled
at once) and a mix of both in one program.

usage: returned_outputs.py PCC WORKDIR   (MPIRUN: the launcher's command)
"""

import os
import shlex
import sys

import numpy as np

from mpi_runs import report, run_saved


def psum_program(elem, devices, count):
    full, one = f"tensor<{devices}x{count}x{elem}>", f"tensor<{count}x{elem}>"
    return f"""
func.func @main(%a: {full}) -> {full} {{
  %r = spmd.pmap "i" (%x = %a : {full}) -> ({full}) {{
    %s = spmd.psum %x over "i" : {one}
    spmd.yield %s : {one}
  }}
  return %r : {full}
}}
"""


def all_gather_program(devices, count):
    full = f"tensor<{devices}x{count}xf32>"
    gathered = f"tensor<{devices}x{devices * count}xf32>"
    return f"""
func.func @main(%a: {full}) -> {gathered} {{
  %r = spmd.pmap "i" (%x = %a : {full}) -> ({gathered}) {{
    %g = spmd.all_gather %x over "i" tiled : tensor<{count}xf32> -> tensor<{devices * count}xf32>
    spmd.yield %g : tensor<{devices * count}xf32>
  }}
  return %r : {gathered}
}}
"""


def mixed_program(devices, count):
    """Two uniform outputs: one only returned, one also read by host code
    (its square is the third result)."""
    full, one = f"tensor<{devices}x{count}xf32>", f"tensor<{count}xf32>"
    return f"""
func.func @main(%a: {full}) -> ({full}, {full}, {full}) {{
  %r:2 = spmd.pmap "i" (%x = %a : {full}) -> ({full}, {full}) {{
    %s = spmd.psum %x over "i" : {one}
    %m = spmd.pmax %x over "i" : {one}
    spmd.yield %s, %m : {one}, {one}
  }}
  %sq = arith.mulf %r#1, %r#1 : {full}
  return %r#0, %r#1, %sq : {full}, {full}, {full}
}}
"""


def integers(shape, dtype, seed):
    return (np.random.default_rng(seed).integers(-8, 8, size=shape)
            .astype(dtype))


def cases():
    """(name, processes, program, input, expected results)."""
    for devices, processes, elem, count in ((2, 2, "f32", 40000),
                                            (4, 2, "f64", 9000),
                                            (4, 4, "f32", 30000),
                                            (8, 2, "f32", 5000)):
        x = integers((devices, count), np.dtype(elem.replace("f", "float")),
                     count)
        yield (f"psum-{elem}-n{devices}-p{processes}", processes,
               psum_program(elem, devices, count), x,
               [np.broadcast_to(x.sum(axis=0), x.shape)])
    for devices, processes, count in ((2, 2, 20000), (4, 2, 5000)):
        x = integers((devices, count), np.float32, count + 1)
        yield (f"all_gather-n{devices}-p{processes}", processes,
               all_gather_program(devices, count), x,
               [np.broadcast_to(x.reshape(-1), (devices, devices * count))])
    x = integers((4, 20000), np.float32, 7)
    m = np.broadcast_to(x.max(axis=0), x.shape)
    yield ("mixed-n4-p2", 2, mixed_program(4, 20000), x,
           [np.broadcast_to(x.sum(axis=0), x.shape), m, m * m])


def same(results, expected):
    return len(results) == len(expected) and all(
        got.dtype == want.dtype and got.shape == want.shape and
        np.array_equal(got, want) for got, want in zip(results, expected))


def main():
    pcc, workdir = sys.argv[1], sys.argv[2]
    launcher = shlex.split(os.environ["MPIRUN"])
    os.makedirs(workdir, exist_ok=True)
    passed, failures = 0, []
    for name, processes, program, x, expected in cases():
        for repeat, rotate in ((1, 1), (5, 3)):
            results, error = run_saved(
                launcher, pcc, workdir, f"{name}-{repeat}", processes,
                program, x, [f"--repeat={repeat}", f"--rotate={rotate}"])
            if error:
                failures.append(f"FAIL {name} x{repeat}: {error}")
            elif not same(results, expected):
                failures.append(f"FAIL {name} x{repeat}: a result differs "
                                "from NumPy's")
            else:
                passed += 1
    return report("returned outputs", passed, failures)


if __name__ == "__main__":
    sys.exit(main())
