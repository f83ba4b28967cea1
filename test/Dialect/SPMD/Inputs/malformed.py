"""Feeds pcc-opt broken versions of valid programs and checks that it never
crashes: every input must either verify (exit 0) or produce a located
`FILE:LINE:COL: error:` diagnostic and exit 1.

usage: malformed.py PCC_OPT FILE... (the valid programs to break)
"""

import random
import subprocess
import sys
import tempfile

CRASH_MARKERS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
                 "LLVM ERROR", "Segmentation fault", "Aborted")


def variants(text, rng):
    """Truncations at many points, plus token-level damage."""
    step = max(1, len(text) // 25)
    for end in range(0, len(text), step):
        yield f"truncated at byte {end}", text[:end]
    tokens = text.split(" ")
    for _ in range(25):
        damaged = list(tokens)
        i = rng.randrange(len(damaged))
        action = rng.choice(["drop", "dup", "swap", "garble"])
        if action == "drop":
            del damaged[i]
        elif action == "dup":
            damaged.insert(i, damaged[i])
        elif action == "swap":
            j = rng.randrange(len(damaged))
            damaged[i], damaged[j] = damaged[j], damaged[i]
        else:
            damaged[i] = rng.choice(["%", "\"", "{", "}", "(", ")", ":", "<",
                                     "tensor<?xf32>", "-1", "\xff\xfe", "["])
        yield f"{action} of token {i}", " ".join(damaged)
    yield "empty", ""
    yield "not UTF-8", "\udcff\udcfe".encode("utf-8", "surrogateescape").decode(
        "latin-1")


def main():
    pcc_opt, files = sys.argv[1], sys.argv[2:]
    rng = random.Random(1234)
    failures, runs, contained = [], 0, 0
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False,
                                     encoding="latin-1") as handle:
        path = handle.name
    for source in files:
        text = open(source, encoding="utf-8").read()
        for what, broken in variants(text, rng):
            with open(path, "w", encoding="latin-1", errors="replace") as out:
                out.write(broken)
            proc = subprocess.run([pcc_opt, path], capture_output=True,
                                  text=True, errors="replace", timeout=60)
            runs += 1
            crashed = proc.returncode not in (0, 1) or any(
                marker in proc.stderr for marker in CRASH_MARKERS)
            # A crash inside an upstream parser, turned into exit status 1 by
            # pcc-opt's crash recovery: counted and reported, not hidden.
            if proc.returncode == 1 and "internal error" in proc.stderr:
                contained += 1
                print(f"contained upstream crash: {source} ({what})")
                continue
            unlocated = proc.returncode == 1 and f"{path}:" not in proc.stderr
            if crashed or unlocated:
                failures.append(f"{source} ({what}): exit {proc.returncode}\n"
                                f"{proc.stderr[-2000:]}")
    for failure in failures:
        print(failure)
    print(f"{runs} inputs, {len(failures)} failures, "
          f"{contained} contained upstream crashes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
