"""Runs each entry of dynamic_slices.mlir with values that are valid and
with values that would read or write out of bounds (or loop forever): the
first must give NumPy's result, the second pcc's located error with exit
status 1. Prints a summary.

usage: dynamic_checks.py PCC PROGRAM DIR [--backend=B] [--aot]
"""

import os
import subprocess
import sys

import numpy as np

A8 = np.arange(8, dtype=np.float32)
B2 = np.array([100, 200], np.float32)
B4 = np.array([10, 20, 30, 40], np.float32)
X = np.arange(32, dtype=np.float32).reshape(4, 8)
MX = np.arange(64, dtype=np.float32).reshape(2, 4, 8) % 5
MY = np.arange(64, dtype=np.float32).reshape(2, 8, 4) % 3


def i(value):
    return np.int64(value)


def inserted(a, at, b):
    out = a.copy()
    out[at] = b
    return out


def pmap_insert(o):
    s = X.sum(axis=0)
    out = X.copy()
    out[:, o:o + 2] = s[:2]
    return out


def parallel(n):
    out = np.zeros(8, np.float32)
    for j in range(2):
        out[n + 2 * j:n + 2 * j + 2] = j
    return out


def matmul(k):
    m = MX[:, :, :k] @ MY[:, :k, :]
    return np.broadcast_to(m.sum(axis=0), m.shape)


# (entry, arguments, expected results or the error's text)
CASES = [
    ("insert", [A8, B2, i(6)], [inserted(A8, slice(6, 8), B2)]),
    ("insert", [A8, B2, i(7)], "'tensor.insert_slice': slice of 2 elements "
     "from offset 7 runs past the end of axis 0 with size 8"),
    ("insert", [A8, B2, i(-1)], "'tensor.insert_slice': slice offset -1 is "
     "out of bounds for axis 0 with size 8"),
    ("insert", [A8, B2, i(10**9)], "slice offset 1000000000 is out of bounds"),
    ("insert_strided", [A8, B4, i(2)], [inserted(A8, slice(0, 8, 2), B4)]),
    ("insert_strided", [A8, B4, i(3)], "slice of 4 elements with stride 3 "
     "from offset 0 runs past the end of axis 0 with size 8"),
    ("insert_strided", [A8, B4, i(-1)], "slice of 4 elements with stride -1 "
     "from offset 0 runs past the start of axis 0 with size 8"),
    ("insert_sized", [A8, B2, i(3), i(2)], [inserted(A8, slice(3, 5), B2)]),
    ("insert_sized", [A8, B2, i(3), i(3)], "'tensor.insert_slice': the "
     "inserted tensor's axis 0 has size 2 where the slice has 3"),
    ("extract", [A8, i(2), i(5)], [np.float32(A8[2:7].sum())]),
    ("extract", [A8, i(8), i(0)], [np.float32(0)]),
    ("extract", [A8, i(0), i(0)], [np.float32(0)]),
    ("extract", [A8, i(9), i(0)], "'tensor.extract_slice': slice offset 9 is "
     "out of bounds for axis 0 with size 8"),
    ("extract", [A8, i(4), i(5)], "'tensor.extract_slice': slice of 5 "
     "elements from offset 4 runs past the end of axis 0 with size 8"),
    ("extract", [A8, i(1), i(-2)], "'tensor.extract_slice': slice size -2 of "
     "axis 0 is negative"),
    ("reversed_pair", [A8, i(5), i(3)], [A8[4:2:-1]]),
    ("reversed_pair", [A8, i(5), i(4)], "'tensor.extract_slice': slice "
     "offset 5 is out of bounds for axis 0 with size 5"),
    ("reversed_pair", [A8, i(5), i(-1)], "'tensor.extract_slice': slice of "
     "2 elements with stride -1 from offset 0 runs past the start of axis 0 "
     "with size 5"),
    ("insert_in_pmap", [X, i(6)], [pmap_insert(6)]),
    ("insert_in_pmap", [X, i(7)], "'tensor.insert_slice': slice of 2 "
     "elements from offset 7 runs past the end of axis 0 with size 8"),
    ("parallel_insert", [i(4)], [parallel(4)]),
    ("parallel_insert", [i(7)], "'tensor.parallel_insert_slice': slice of 2 "
     "elements from offset 7 runs past the end of axis 0 with size 8"),
    ("concat", [A8, B4, i(8), i(2)], [np.concatenate([A8, B4[:2]])]),
    ("concat", [A8, B4, i(8), i(1)], "'tensor.concat': inputs of 9 elements "
     "in all along axis 0 do not make the result's 10"),
    ("concat", [A8, B4, i(7), i(4)], "'tensor.concat': inputs of 11 elements "
     "in all along axis 0 do not make the result's 10"),
    ("add", [A8, B4, i(2), i(2)], [A8[:2] + B4[:2]] * 2),
    ("add", [A8, B4, i(2), i(1)], "'linalg.add': operand #1 has size 1 on "
     "axis 0 where the op's other operands give 2"),
    ("add", [A8, B4, i(8), i(2)], "'linalg.add': operand #1 has size 2 on "
     "axis 0 where the op's other operands give 8"),
    ("matmul_in_pmap", [MX, MY, i(5), i(5)], [matmul(5)]),
    ("matmul_in_pmap", [MX, MY, i(5), i(3)], "'linalg.matmul': operand #1 "
     "has size 3 on axis 0 where the op's other operands give 5"),
    ("loop", [i(3)], [np.int64(2)]),
    ("loop", [i(0)], "'scf.for': loop step 0 is not positive"),
    ("loop", [i(-1)], "'scf.for': loop step -1 is not positive"),
    ("loop_i32", [np.int32(3)], [np.int32(4)]),
    ("loop_i32", [np.int32(0)], "'scf.for': loop step 0 is not positive"),
    ("loop_to_the_top", [i(2**63 - 10)], [np.int64(3)]),
    ("loop_to_the_top", [i(2**63 - 3)], "'scf.for': the loop's step 3 from "
     "9223372036854775805 overflows its 64-bit induction variable"),
    ("loop_unsigned", [i(2)], [np.int64(2)]),
    ("loop_unsigned", [i(-1)], [np.int64(1)]),
    ("loop_unsigned", [i(0)], "'scf.for': loop step 0 is zero"),
    ("toeplitz", [A8, i(7)],
     [np.array([[A8[r - c + 3] for c in range(4)] for r in range(4)])]),
    ("toeplitz", [A8, i(4)], "'linalg.generic': operand #0 has size 4 on "
     "axis 0, too small for the index 6 that the op reaches"),
    ("cyclic", [A8, i(3)], [A8[np.arange(7) % 3]]),
    ("cyclic", [A8, i(2)], "'linalg.generic': operand #0 has size 2 on axis "
     "0, too small for the index 2 that the op reaches"),
    ("reversed", [A8, i(8)], [np.append(A8[::-1], np.float32(0))]),
    ("reversed", [A8, i(9)], "'linalg.generic': operand #0 is indexed at -1 "
     "on axis 0, before its start"),
    ("pad_to_ten", [A8, i(1), i(1)], [np.pad(A8, (1, 1))]),
    ("pad_to_ten", [A8, i(5), i(0)], "'tensor.pad': axis 0 padded to 13 "
     "elements where the result has 10"),
    ("pad_to_ten", [A8, i(10**6), i(0)], "'tensor.pad': axis 0 padded to "
     "1000008 elements where the result has 10"),
    ("materialize", [A8, i(4)], [A8[:4]]),
    ("materialize", [A8, i(2)], "'bufferization.materialize_in_destination': "
     "the source has size 2 on axis 0 where the destination has 4"),
    ("alloc", [i(4)], [np.float32(4)]),
    ("alloc", [i(-5)], "'bufferization.alloc_tensor': axis 0 has negative "
     "size -5"),
]


def main():
    pcc, program, directory = sys.argv[1:4]
    flags = [f for f in sys.argv[4:] if f != "--aot"]
    aot = "--aot" in sys.argv[4:]
    os.makedirs(directory, exist_ok=True)
    failures = []
    executables = {}
    for number, (entry, args, expected) in enumerate(CASES):
        files = []
        for k, arg in enumerate(args):
            files.append(os.path.join(directory, f"case{number}_{k}.npy"))
            np.save(files[-1], arg)
        saved = os.path.join(directory, f"case{number}")
        if aot:
            if entry not in executables:
                executables[entry] = os.path.join(directory, entry)
                subprocess.run([pcc, "compile", program, "-e", entry, "-o",
                                executables[entry], *flags], check=True)
            command = [executables[entry]]
        else:
            command = [pcc, "run", program, "-e", entry, *flags]
        label = f"{entry}{[a.tolist() if a.ndim == 0 else '...' for a in args]}"
        try:
            done = subprocess.run(command + files + [f"--save-results={saved}"],
                                  capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            failures.append(f"{label}: still running after 60 s")
            continue
        if isinstance(expected, str):
            if done.returncode != 1 or expected not in done.stderr or \
                    "pcc runtime error: " not in done.stderr:
                failures.append(f"{label}: expected exit status 1 and "
                                f"'{expected}', got {done.returncode}: "
                                f"{done.stderr.strip()[-400:]}")
            continue
        if done.returncode != 0:
            failures.append(f"{label}: exit status {done.returncode}: "
                            f"{done.stderr.strip()[-400:]}")
            continue
        for k, want in enumerate(expected):
            got = np.load(os.path.join(saved, f"result{k}.npy"))
            if got.shape != np.shape(want) or not np.array_equal(got, want):
                failures.append(f"{label}: result {k} is {got.tolist()}, "
                                f"NumPy's {np.asarray(want).tolist()}")
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"dynamic checks: {len(CASES) - len(failures)} passed, "
          f"{len(failures)} failed")


if __name__ == "__main__":
    main()
