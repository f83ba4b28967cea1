"""Checks that LLVM IR from `pcc compile --mcpu=native --emit=llvm` (on
stdin) is for this machine: every defined function names a target CPU and
features, and the features agree with the flags /proc/cpuinfo lists, where
a virtual machine may have turned off some that its CPU's name implies.
Prints a summary."""

import re
import sys

# /proc/cpuinfo's names for some x86 features, and LLVM's.
FLAGS = {"sse4_2": "sse4.2", "avx": "avx", "avx2": "avx2", "fma": "fma",
         "bmi2": "bmi2", "avx512f": "avx512f", "avx512bw": "avx512bw",
         "avx512vl": "avx512vl"}


def main():
    ir = sys.stdin.read()
    groups = re.findall(r'^attributes #\d+ = \{(.*)\}$', ir, re.M)
    described = [g for g in groups if '"target-cpu"' in g]
    if not described:
        sys.exit("no function names its target CPU")
    features = set()
    for group in described:
        match = re.search(r'"target-features"="([^"]*)"', group)
        if not match:
            sys.exit(f"a function without target features: {group}")
        features.add(match.group(1))
    if len(features) != 1:
        sys.exit(f"functions disagree on the features: {features}")
    given = {f[1:]: f[0] == "+" for f in features.pop().split(",")}
    with open("/proc/cpuinfo") as handle:
        line = next(l for l in handle if l.startswith("flags"))
    host = set(line.split(":", 1)[1].split())
    for flag, name in FLAGS.items():
        if given.get(name, False) != (flag in host):
            sys.exit(f"{name}: {'+' if given.get(name) else '-'} in the IR, "
                     f"{'present' if flag in host else 'absent'} in /proc/cpuinfo")
    print(f"host features match /proc/cpuinfo ({len(FLAGS)} checked)")


if __name__ == "__main__":
    main()
