#!/usr/bin/python3
"""pcc's GPU benchmarks, in the two halves of
scripts/gpu-check.sh, since the GPU machines have no LLVM:

    bench/gpu.py prepare DIR [--pcc PCC] [--tiny]
        here: compiles the benchmark programs with `pcc compile
        --backend=cuda` into DIR, and the copy bound (bench/gpu_bounds.c)
    bench/gpu.py run DIR [--out OUT]
        on the GPU machine: times each program (--repeat; the first run,
        which moves the inputs to the GPU, is left out), checks its results
        against NumPy, measures the device's copy bandwidth and, where they
        are installed, JAX and PyTorch on the same computations, side by
        side; writes OUT/gpu-benchmarks.md and OUT/gpu-benchmarks.json

Targets: elementwise and reductions at >= 1 GiB within 85 % / 80 % of the
copy bound and at least as fast as JAX's `jit`; matmul f32 and bf16 4096^3
at >= 50 % of torch.matmul (cuBLAS); psum on 1 device and oversubscribed
(N = 2, 4, 8 on one GPU) at >= 80 % of the copy bound from 64 MiB.
"""

import argparse
import json
import os
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import run as harness  # noqa: E402  (the CPU harness's helpers)

MiB, GiB = 1 << 20, 1 << 30

CONFIGS = {
    "full": dict(
        fma_count=256 * MiB, row_sum_shape=(16384, 16384), matmul=4096,
        psum_bytes=[64 * MiB, 256 * MiB], psum_devices=[2, 4, 8], repeat=10),
    "tiny": dict(
        fma_count=4096, row_sum_shape=(16, 256), matmul=64,
        psum_bytes=[4096], psum_devices=[2], repeat=2),
}


def programs(cfg):
    """The benchmarks: name -> (template, placeholders, flags)."""
    rows, cols = cfg["row_sum_shape"]
    size = cfg["matmul"]
    out = {
        "fma": ("fma.mlir", dict(N=1, COUNT=cfg["fma_count"]), []),
        "row_sum": ("row_sum.mlir", dict(N=1, ROWS=rows, COLS=cols), []),
        "matmul_f32": ("matmul.mlir",
                       harness.matmul_params(1, size, size, size), []),
        "matmul_bf16": ("matmul_bf16.mlir", dict(N=1, SIZE=size), []),
    }
    for nbytes in cfg["psum_bytes"]:
        for n in [1] + cfg["psum_devices"]:
            if n > 1 and nbytes != cfg["psum_bytes"][0]:
                continue
            out[f"psum_n{n}_{nbytes}"] = (
                "psum.mlir", dict(N=n, COUNT=nbytes // 4),
                ["--oversubscribe"] if n > 1 else [])
    return out


# ---------------------------------------------------------------------------
# prepare (here)
# ---------------------------------------------------------------------------

def prepare(args):
    cfg = CONFIGS["tiny" if args.tiny else "full"]
    os.makedirs(args.dir, exist_ok=True)
    failed = {}
    benchmarks = programs(cfg)
    for name, (template, params, _) in benchmarks.items():
        with open(os.path.join(BENCH, "programs", template)) as f:
            text = string.Template(f.read()).substitute(params)
        source = os.path.join(args.dir, name + ".mlir")
        with open(source, "w") as f:
            f.write(text)
        result = subprocess.run(
            [args.pcc, "compile", source, "--backend=cuda", "-o",
             os.path.join(args.dir, name)], capture_output=True, text=True)
        if result.returncode != 0:
            # Reported by `run` as a target not met, with pcc's message.
            failed[name] = result.stderr.strip()[-2000:]
            harness.log(f"gpu bench: {name} does not compile:\n"
                        f"{failed[name]}")
    with open(os.path.join(args.dir, "config.json"), "w") as f:
        json.dump({"config": cfg, "programs": benchmarks,
                   "compile_failures": failed}, f, indent=1)
    harness.run(["cc", "-O2", "-o", os.path.join(args.dir, "gpu_bounds"),
                 os.path.join(BENCH, "gpu_bounds.c"), "-ldl"])


# ---------------------------------------------------------------------------
# run (on the GPU machine)
# ---------------------------------------------------------------------------

def small_ints(np, shape, seed, high=8):
    """Small integers (as f32): sums and products are exact in any order."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, high, size=shape, dtype=np.int8).astype(np.float32)


def inputs_and_oracle(np, name, params):
    """The arguments of benchmark `name` and NumPy's result."""
    if name == "fma":
        count = params["COUNT"]
        a, b, c = (small_ints(np, (1, count), s) for s in (1, 2, 3))
        return [a, b, c], a * b + c
    if name == "row_sum":
        m = small_ints(np, (1, params["ROWS"], params["COLS"]), 4)
        return [m], m.sum(axis=2)
    if name.startswith("matmul"):
        size = params["SIZE"]
        a = small_ints(np, (1, size, size), 5, high=3)
        b = small_ints(np, (1, size, size), 6, high=3)
        # Exact in f32, and the inputs in bf16 too.
        return [a, b], np.matmul(a, b)
    if name.startswith("psum"):
        x = small_ints(np, (params["N"], params["COUNT"]), 7)
        return [x], np.broadcast_to(x.sum(axis=0), x.shape)
    raise ValueError(name)


def time_pcc(np, bundle, scratch, name, params, flags, repeat):
    """Runs benchmark `name`; returns its run times (seconds) and whether
    its results match NumPy's (None when they could not be compared)."""
    arguments, expected = inputs_and_oracle(np, name, params)
    paths = []
    for k, array in enumerate(arguments):
        path = os.path.join(scratch, f"{name}-{k}.npy")
        np.save(path, array)
        paths.append(path)
    results = os.path.join(scratch, name + "-results")
    shutil.rmtree(results, ignore_errors=True)
    result = subprocess.run(
        [os.path.join(bundle, name), *paths, f"--repeat={repeat + 1}",
         f"--save-results={results}", *flags],
        capture_output=True, text=True)
    for path in paths:
        os.remove(path)
    if result.returncode != 0:
        return None, f"exit {result.returncode}: {result.stderr[-2000:]}"
    times = [float(m) for m in re.findall(r"^pcc: run \d+/\d+: ([0-9.e+-]+) s$",
                                          result.stderr, re.M)][1:]
    got = np.load(os.path.join(results, "result0.npy"))
    shutil.rmtree(results, ignore_errors=True)
    # Small integers: every result is exact, bf16 inputs included.
    ok = bool(np.array_equal(got, expected))
    return times, None if ok else "results differ from NumPy's"


def copy_bound(bundle, moved_bytes, repeat):
    """Seconds per device copy that moves `moved_bytes` (read + written)."""
    out = harness.run([os.path.join(bundle, "gpu_bounds"), "copy",
                       str(max(4, moved_bytes // 2)), str(repeat)]).stdout
    return [float(t) for t in out.split()]


def time_calls(call, sync, repeat):
    sync(call())  # warm-up: compilation, first transfers
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        sync(call())
        times.append(time.perf_counter() - t0)
    return times


def time_jax(np, name, params, repeat):
    """JAX's jit of the same computation, or None without JAX."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    if not any(d.platform == "gpu" for d in jax.devices()):
        return None
    arguments, _ = inputs_and_oracle(np, name, params)
    if name.startswith("psum") and params["N"] > 1:
        return None  # JAX cannot place several devices on one GPU.
    dtype = jnp.bfloat16 if name == "matmul_bf16" else jnp.float32
    on_gpu = [jax.device_put(jnp.asarray(a, dtype=dtype)) for a in arguments]
    if name == "fma":
        f = jax.jit(lambda a, b, c: a * b + c)
    elif name == "row_sum":
        f = jax.jit(lambda m: m.sum(axis=2))
    elif name.startswith("matmul"):
        # True f32 (no TF32), and bf16 accumulated in f32, as pcc does.
        f = jax.jit(lambda a, b: jnp.matmul(
            a, b, precision=jax.lax.Precision.HIGHEST,
            preferred_element_type=jnp.float32))
    else:
        f = jax.pmap(lambda x: jax.lax.psum(x, "i"), axis_name="i")
    return time_calls(lambda: f(*on_gpu), lambda r: r.block_until_ready(),
                      repeat)


def time_torch(np, name, params, repeat):
    """torch.matmul (cuBLAS) for the matmuls, or None without PyTorch."""
    if not name.startswith("matmul"):
        return None
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    # True f32, as pcc computes: no TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    dtype = torch.bfloat16 if name == "matmul_bf16" else torch.float32
    arguments, _ = inputs_and_oracle(np, name, params)
    a, b = (torch.from_numpy(x[0]).to("cuda", dtype) for x in arguments)
    return time_calls(lambda: torch.matmul(a, b),
                      lambda r: torch.cuda.synchronize(), repeat)


def moved_bytes(name, params):
    """Bytes each run reads plus writes, for the copy bound."""
    if name == "fma":
        return 4 * 4 * params["COUNT"]
    if name == "row_sum":
        return 4 * params["ROWS"] * (params["COLS"] + 1)
    if name.startswith("psum"):
        return 2 * params["N"] * 4 * params["COUNT"]
    return None


TARGETS = {"fma": ("bound", 0.85), "row_sum": ("bound", 0.80),
           "matmul_f32": ("torch", 0.50), "matmul_bf16": ("torch", 0.50)}


def run_benchmarks(args):
    import numpy as np
    with open(os.path.join(args.dir, "config.json")) as f:
        setup = json.load(f)
    cfg, repeat = setup["config"], setup["config"]["repeat"]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pcc-gpu-bench-") as scratch:
        for name, (_, params, flags) in setup["programs"].items():
            row = {"name": name, "params": params}
            if name in setup["compile_failures"]:
                row["error"] = ("does not compile: " +
                                setup["compile_failures"][name])
            else:
                times, error = time_pcc(np, args.dir, scratch, name, params,
                                        flags, repeat)
                if times:
                    row["pcc"] = harness.stats(times)
                if error:
                    row["error"] = error
            moved = moved_bytes(name, params)
            if moved:
                row["bound"] = harness.stats(copy_bound(args.dir, moved,
                                                        repeat))
            for baseline, timer in (("jax", time_jax), ("torch", time_torch)):
                try:
                    times = timer(np, name, params, repeat)
                except Exception as e:  # a baseline's failure is reported
                    row[baseline + "_error"] = str(e)[-500:]
                    times = None
                if times:
                    row[baseline] = harness.stats(times)
            harness.log(f"gpu bench: {name}: {json.dumps(row)[:400]}")
            rows.append(row)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "gpu-benchmarks.json"), "w") as f:
        json.dump({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   "gpu": gpu_name(), "config": cfg, "rows": rows}, f,
                  indent=1)
    with open(os.path.join(args.out, "gpu-benchmarks.md"), "w") as f:
        f.write(report(rows))
    print(report(rows))
    return 0 if all("error" not in row for row in rows) else 1


def gpu_name():
    result = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                            text=True)
    return result.stdout.strip() or "unknown GPU"


def median(row, key):
    return row[key]["median"] if key in row else None


def report(rows):
    """The table of every benchmark: pcc, its bound and baselines, ratios,
    and the target where the issue sets one."""
    lines = ["| benchmark | pcc | copy bound | JAX | torch | ratio | target "
             "| met |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        name = row["name"]
        pcc = median(row, "pcc")
        cells = [harness.human_seconds(v) if v else "—"
                 for v in (pcc, median(row, "bound"), median(row, "jax"),
                           median(row, "torch"))]
        ratio, target, met = "—", "—", "—"
        kind, goal = TARGETS.get(name, ("bound", 0.80) if name.startswith(
            "psum") and row["params"]["COUNT"] * 4 >= 64 * MiB else (None, 0))
        reference = median(row, kind) if kind else None
        if pcc and reference:
            ratio = f"{reference / pcc:.0%} of {kind}"
            target = f"≥ {goal:.0%}"
            met = "yes" if reference / pcc >= goal else "**no**"
        jax = median(row, "jax")
        if pcc and jax:
            ratio += f"; JAX / pcc {jax / pcc:.2f}"
            met += "" if jax >= pcc else " (slower than JAX)"
        if "error" in row:
            met = f"**failed**: {row['error'][:200]}"
        lines.append(f"| {name} | " + " | ".join(cells) +
                     f" | {ratio} | {target} | {met} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["prepare", "run"])
    parser.add_argument("dir")
    parser.add_argument("--pcc", default=os.path.join(
        os.path.dirname(BENCH), "build", "bin", "pcc"))
    parser.add_argument("--tiny", action="store_true",
                        help="tiny sizes (to test the harness)")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    if args.step == "prepare":
        prepare(args)
        return 0
    return run_benchmarks(args)


if __name__ == "__main__":
    sys.exit(main())
