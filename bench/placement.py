#!/usr/bin/python3
"""Side-by-side measurements of how pcc places devices on host threads, the
figures bench/notes.md quotes: one binary, run with and without each choice,
the two alternating process by process.

    bench/placement.py [--pcc build/bin/pcc] [--processes 7] [--runs 2000]

  fibers   psum of 8 B to 32 KiB at N = 4 and 8: a thread per device
           (PCC_HOST_THREADS=N) against fibers on the cores' threads
  pinning  psum of 8 B at N = 2, per process: threads left to the scheduler
           (PCC_PIN_THREADS=0) against pinned, and how many processes ran
           slower than 2 µs per run
  costs    psum of 8 B and 512 B at N = 2: warm buffers against buffers
           rotated out of cache (--rotate), two threads against one
           (PCC_HOST_THREADS=1)
  serial   psum of 8 B to 32 KiB at N = 2, 4 and 8, rotated out of cache:
           the default, where each pmap's first launches are timed on one
           thread and on several and the later ones take the faster,
           against PCC_SERIAL_WORK=0, where every launch uses every thread

The first three run every launch on every thread (PCC_SERIAL_WORK=0), the
placement they compare. Each figure is the median over processes of each
process's median run time (pcc's --repeat), after a first run that is
dropped.
"""

import argparse
import os
import re
import statistics
import string
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_psum(pcc, scratch, n, count):
    with open(os.path.join(ROOT, "bench", "programs", "psum.mlir")) as f:
        text = string.Template(f.read()).substitute(N=n, COUNT=count)
    base = os.path.join(scratch, f"psum_{n}_{count}")
    with open(base + ".mlir", "w") as f:
        f.write(text)
    subprocess.run([pcc, "compile", base + ".mlir", "-o", base], check=True)
    x = np.random.default_rng(1).integers(-8, 8, size=(n, count))
    np.save(base + ".npy", x.astype(np.float32))
    return base


EVERY_THREAD = {"PCC_SERIAL_WORK": "0"}


def median_run(exe, runs, rotate=1, env=None):
    """The median of one process's runs, in µs, with every launch on every
    thread unless `env` says otherwise (a variable set to None is unset)."""
    env = {**os.environ, **EVERY_THREAD, **(env or {})}
    result = subprocess.run(
        [exe, exe + ".npy", f"--repeat={runs + 1}", f"--rotate={rotate}"],
        capture_output=True, text=True,
        env={k: v for k, v in env.items() if v is not None}, check=True)
    times = [float(t) for t in re.findall(r"^pcc: run \d+/\d+: (\S+) s$",
                                          result.stderr, re.M)]
    return statistics.median(times[1:]) * 1e6


def side_by_side(variants, processes):
    """Runs each (name, thunk) in turn, `processes` times; returns the
    per-process figures of each."""
    figures = {name: [] for name, _ in variants}
    for _ in range(processes):
        for name, thunk in variants:
            figures[name].append(thunk())
    return figures


def show(label, figures):
    parts = [f"{name} {statistics.median(v):.2f} µs "
             f"({min(v):.2f}–{max(v):.2f})" for name, v in figures.items()]
    print(f"{label}: " + ", ".join(parts), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pcc", default=os.path.join(ROOT, "build", "bin",
                                                      "pcc"))
    parser.add_argument("--processes", type=int, default=7)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--only",
                        choices=("fibers", "pinning", "costs", "serial"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pcc-placement-") as scratch:
        if args.only in (None, "fibers"):
            for n in (4, 8):
                for size in (8, 512, 4096, 32768):
                    exe = compile_psum(args.pcc, scratch, n, size // 4)
                    show(f"psum N={n} {size} B", side_by_side([
                        ("thread per device", lambda: median_run(
                            exe, args.runs, env={"PCC_HOST_THREADS": str(n)})),
                        ("fibers", lambda: median_run(exe, args.runs)),
                    ], args.processes))
        if args.only in (None, "pinning"):
            exe = compile_psum(args.pcc, scratch, 2, 2)
            figures = side_by_side([
                ("unpinned", lambda: median_run(
                    exe, args.runs, env={"PCC_PIN_THREADS": "0"})),
                ("pinned", lambda: median_run(exe, args.runs)),
            ], 3 * args.processes)
            show("psum N=2 8 B", figures)
            print("  processes slower than 2 µs per run: " + ", ".join(
                f"{name} {sum(t > 2 for t in v)} of {len(v)}"
                for name, v in figures.items()), flush=True)
        if args.only in (None, "costs"):
            for size in (8, 512):
                exe = compile_psum(args.pcc, scratch, 2, size // 4)
                cold = args.runs + 1
                one = {"PCC_HOST_THREADS": "1"}
                show(f"psum N=2 {size} B", side_by_side([
                    ("two threads warm", lambda: median_run(exe, args.runs)),
                    ("two threads cold",
                     lambda: median_run(exe, args.runs, cold)),
                    ("one thread warm",
                     lambda: median_run(exe, args.runs, env=one)),
                    ("one thread cold",
                     lambda: median_run(exe, args.runs, cold, one)),
                ], args.processes))
        if args.only in (None, "serial"):
            cold = args.runs + 1
            for n, sizes in ((2, (8, 64, 512, 4096, 32768)),
                             (4, (8, 512, 4096)), (8, (8, 512))):
                for size in sizes:
                    exe = compile_psum(args.pcc, scratch, n, size // 4)
                    show(f"psum N={n} {size} B", side_by_side([
                        ("default", lambda: median_run(
                            exe, args.runs, cold, {"PCC_SERIAL_WORK": None})),
                        ("every thread",
                         lambda: median_run(exe, args.runs, cold)),
                    ], 2 * args.processes))


if __name__ == "__main__":
    sys.exit(main())
