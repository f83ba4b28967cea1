#!/usr/bin/env python3
"""Stands in for `pcc` in the end-to-end test scripts (oracle.py,
linalg_ops.py, ...), which call `PCC run PROGRAM [ARG.npy ...] [OPTIONS]`, so
that the same cases also check the other ways programs run. The mode and the
real tools come from the environment:

  PCC_VIA=jit      `pcc run` with PCC_VIA_FLAGS added (e.g. --backend=cuda
                   --oversubscribe).
  PCC_VIA=aot      compile PROGRAM with `pcc compile` (PCC_VIA_FLAGS, e.g.
                   --backend=cuda, go to the compiler), then run the
                   executable with the arguments, options and
                   PCC_VIA_RUN_FLAGS.
  PCC_VIA=record   compile into PCC_VIA_BUNDLE/<sha256 of PROGRAM>, then run
                   `pcc run` here so the calling script still checks
                   something: prepares a bundle for a machine without LLVM.
  PCC_VIA=replay   run PCC_VIA_BUNDLE/<sha256 of PROGRAM> with the arguments,
                   options and PCC_VIA_RUN_FLAGS (e.g. --oversubscribe): the
                   GPU machine's side of scripts/gpu-check.sh.

PCC_VIA_LAUNCHER, in the jit and aot modes, is a command put in front of
the run (e.g. `mpirun --allow-run-as-root --oversubscribe -np 2`).

PCC names the real driver (jit, aot, record). Test scripts generate their
programs deterministically, so a program's hash finds its executable.
"""

import hashlib
import os
import subprocess
import sys
import tempfile


def fail(message):
    print(f"pcc_via: error: {message}", file=sys.stderr)
    return 1


def executable_name(program):
    with open(program, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:24]


def split_run_command(argv):
    """`run PROGRAM rest...` -> (PROGRAM, compile options, run arguments)."""
    if len(argv) < 2 or argv[0] != "run":
        raise SystemExit(fail("expected 'run PROGRAM ...', got " + " ".join(argv)))
    program, rest = argv[1], argv[2:]
    compile_options, run_arguments = [], []
    index = 0
    while index < len(rest):
        arg = rest[index]
        # Options of the compiler (the entry) versus the executable's own.
        if arg in ("-e", "--entry"):
            compile_options += rest[index:index + 2]
            index += 2
            continue
        if arg.startswith("--entry=") or arg.startswith("--backend="):
            compile_options.append(arg)
        else:
            run_arguments.append(arg)
        index += 1
    return program, compile_options, run_arguments


def compile_program(program, options, output):
    flags = os.environ.get("PCC_VIA_FLAGS", "").split()
    command = [os.environ["PCC"], "compile", program, "-o", output,
               *options, *flags]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
    return proc.returncode


def main(argv):
    mode = os.environ.get("PCC_VIA", "aot")
    program, options, arguments = split_run_command(argv)
    launcher = os.environ.get("PCC_VIA_LAUNCHER", "").split()
    if mode == "jit":
        flags = os.environ.get("PCC_VIA_FLAGS", "").split()
        return subprocess.run([*launcher, os.environ["PCC"], "run", program,
                               *options,
                               *arguments, *flags]).returncode
    if mode == "aot":
        with tempfile.TemporaryDirectory(prefix="pcc-via-") as tmp:
            exe = os.path.join(tmp, "program")
            status = compile_program(program, options, exe)
            if status != 0:
                return status
            flags = os.environ.get("PCC_VIA_RUN_FLAGS", "").split()
            return subprocess.run([*launcher, exe, *arguments,
                                   *flags]).returncode
    bundle = os.environ.get("PCC_VIA_BUNDLE")
    if not bundle:
        return fail("PCC_VIA_BUNDLE is not set")
    exe = os.path.join(bundle, executable_name(program))
    if mode == "record":
        os.makedirs(bundle, exist_ok=True)
        status = compile_program(program, options, exe)
        if status != 0:
            return status
        return subprocess.run([os.environ["PCC"], "run", program, *options,
                               *arguments]).returncode
    if mode == "replay":
        if not os.path.exists(exe):
            return fail(f"no executable for {program} in {bundle} (record the "
                        "bundle again)")
        flags = os.environ.get("PCC_VIA_RUN_FLAGS", "").split()
        return subprocess.run([exe, *arguments, *flags]).returncode
    return fail(f"unknown PCC_VIA mode '{mode}'")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
