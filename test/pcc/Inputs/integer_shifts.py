"""Runs shli, shrui and shrsi on i8 and i64 by every amount from -2 to
2 * width + 1, on the host and on 2 devices, JIT and compiled, and compares
each result with NumPy's. Prints a summary.

usage: integer_shifts.py PCC DIR [FLAGS...]
"""

import os
import subprocess
import sys

import numpy as np

PROGRAM = """
func.func @main(%x: tensor<NxT>, %s: tensor<NxT>) -> (tensor<NxT>, tensor<NxT>, tensor<NxT>) {
  %l = arith.shli %x, %s : tensor<NxT>
  %u = arith.shrui %x, %s : tensor<NxT>
  %r = arith.shrsi %x, %s : tensor<NxT>
  return %l, %u, %r : tensor<NxT>, tensor<NxT>, tensor<NxT>
}
func.func @on_devices(%x: tensor<2xHxT>, %s: tensor<2xHxT>) -> (tensor<2xHxT>, tensor<2xHxT>, tensor<2xHxT>) {
  %l, %u, %r = spmd.pmap "d" (%a = %x : tensor<2xHxT>, %b = %s : tensor<2xHxT>) -> (tensor<2xHxT>, tensor<2xHxT>, tensor<2xHxT>) {
    %l = arith.shli %a, %b : tensor<HxT>
    %u = arith.shrui %a, %b : tensor<HxT>
    %r = arith.shrsi %a, %b : tensor<HxT>
    spmd.yield %l, %u, %r : tensor<HxT>, tensor<HxT>, tensor<HxT>
  }
  return %l, %u, %r : tensor<2xHxT>, tensor<2xHxT>, tensor<2xHxT>
}
"""


def numpy_shifts(x, s, dtype, unsigned):
    """NumPy's shifts: an amount of the width or more (as unsigned) shifts
    every bit out."""
    width = np.dtype(dtype).itemsize * 8
    far = s.view(unsigned) >= width
    safe = np.where(far, 0, s).astype(dtype)
    left = np.where(far, 0, np.left_shift(x, safe)).astype(dtype)
    logical = np.where(far, 0, np.right_shift(x.view(unsigned),
                                              safe.view(unsigned)))
    arithmetic = np.right_shift(x, np.where(far, width - 1, s).astype(dtype))
    return [left, logical.astype(unsigned).view(dtype), arithmetic]


def main():
    pcc, directory = sys.argv[1], sys.argv[2]
    flags = sys.argv[3:]
    passed, failures = 0, []
    for name, dtype, unsigned in (("i8", np.int8, np.uint8),
                                  ("i64", np.int64, np.uint64)):
        width = np.dtype(dtype).itemsize * 8
        amounts = np.arange(-2, 2 * width + 2)
        count = len(amounts) * 3
        x = np.tile(np.array([1, -8, 5], dtype), len(amounts))
        s = np.repeat(amounts, 3).astype(dtype)
        expected = numpy_shifts(x, s, dtype, unsigned)
        program = os.path.join(directory, f"shifts_{name}.mlir")
        with open(program, "w") as handle:
            handle.write(PROGRAM.replace("N", str(count))
                         .replace("H", str(count // 2)).replace("T", name))
        np.save(os.path.join(directory, f"x_{name}.npy"), x)
        np.save(os.path.join(directory, f"s_{name}.npy"), s)
        np.save(os.path.join(directory, f"x2_{name}.npy"), x.reshape(2, -1))
        np.save(os.path.join(directory, f"s2_{name}.npy"), s.reshape(2, -1))
        executable = os.path.join(directory, f"shifts_{name}")
        subprocess.run([pcc, "compile", program, "-o", executable, *flags],
                       check=True)
        runs = {
            "JIT": ([pcc, "run", program, *flags], "x", "s"),
            "devices": ([pcc, "run", program, "-e", "on_devices", *flags],
                        "x2", "s2"),
            "compiled": ([executable], "x", "s"),
        }
        for label, (command, xs, ss) in runs.items():
            saved = os.path.join(directory, f"{name}_{label}")
            done = subprocess.run(
                command + [os.path.join(directory, f"{xs}_{name}.npy"),
                           os.path.join(directory, f"{ss}_{name}.npy"),
                           f"--save-results={saved}"],
                capture_output=True, text=True, timeout=120)
            if done.returncode != 0:
                failures.append(f"{name} {label}: exit status "
                                f"{done.returncode}: {done.stderr[-300:]}")
                continue
            got = [np.load(os.path.join(saved, f"result{k}.npy")).reshape(-1)
                   for k in range(3)]
            wrong = [op for op, a, b in zip(("shli", "shrui", "shrsi"), got,
                                            expected)
                     if not np.array_equal(a, b)]
            if wrong:
                failures.append(f"{name} {label}: {', '.join(wrong)} differ "
                                f"from NumPy's")
            else:
                passed += 1
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"integer shifts: {passed} passed, {len(failures)} failed")


if __name__ == "__main__":
    main()
