"""Runs the complete programs of a Markdown page with `pcc run` and checks
that each prints exactly what the page says it prints.

usage: doc_examples.py PCC PAGE.md

The convention, for writers of the page:

- A complete program is a fenced ```mlir block whose previous non-blank line
  is an HTML comment that starts with `run` (Markdown renders nothing of it):

      <!-- run -->
      ```mlir
      func.func @main() -> ... { ... }
      ```

- Its expected output is the next fenced block of the page, which must be a
  ```text block (prose may come between the two). With `<!-- run -->` the
  program must exit with status 0 and its standard output must equal that
  block exactly. With `<!-- run-fails -->` it must exit with status 1 and
  its standard error must equal the block exactly; the program is run as
  `example.mlir` from its own directory, so located errors read
  `example.mlir:LINE:COL: error: ...`.

- After `run` or `run-fails` come the arguments of `pcc run`, split as a
  shell would split them: `NAME.npy=EXPR` saves the NumPy value EXPR (`np`
  is numpy) as NAME.npy and passes that file, in order; any other word
  (`--entry=f`, say) is passed as it is:

      <!-- run a.npy="np.arange(12, dtype=np.int32).reshape(4, 3)" -->

- Every ```mlir block that defines a function (`func.func`) must be marked
  this way, so that no complete program on the page goes unchecked; blocks
  without `func.func` are fragments and are not run.

Prints one line per program, `PASS` or `FAIL` with its line number (and, for
a failure, the difference), then `examples: P passed, F failed`. Exits with
status 1 if any program failed, if the page breaks the convention, or if it
has no program at all.
"""

import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

MARKER = re.compile(r"^<!--\s*(run-fails|run)\b(.*?)-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")


class PageError(Exception):
    pass


def read_blocks(lines):
    """Yields (line number of the opening fence, info string, body lines,
    previous non-blank line before the fence) for each fenced block."""
    index, previous = 0, ""
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        fence, info, start = match.group(1), match.group(2), index
        body = []
        index += 1
        while index < len(lines) and not lines[index].startswith(fence):
            body.append(lines[index])
            index += 1
        if index == len(lines):
            raise PageError(f"line {start + 1}: the block is never closed")
        yield start + 1, info, body, previous
        previous = ""
        index += 1


def collect_examples(text):
    """Returns [(line, mode, arguments, program, expected output)]."""
    blocks = list(read_blocks(text.splitlines()))
    examples = []
    for position, (line, info, body, previous) in enumerate(blocks):
        marker = MARKER.match(previous)
        if info != "mlir":
            if marker:
                raise PageError(f"line {line}: the block after "
                                f"'{previous}' must be a ```mlir block")
            continue
        source = "\n".join(body) + "\n"
        if not marker:
            if "func.func" in source:
                raise PageError(
                    f"line {line}: a ```mlir block that defines a function "
                    "is not marked with <!-- run --> or <!-- run-fails -->")
            continue
        if position + 1 == len(blocks) or blocks[position + 1][1] != "text":
            raise PageError(f"line {line}: the program must be followed by "
                            "a ```text block with its expected output")
        expected = "\n".join(blocks[position + 1][2]) + "\n"
        examples.append((line, marker.group(1), shlex.split(marker.group(2)),
                         source, expected))
    return examples


def run_example(pcc, mode, arguments, program, workdir):
    """Runs one program; returns (exit status, standard output, standard
    error)."""
    with open(os.path.join(workdir, "example.mlir"), "w") as file:
        file.write(program)
    command = [pcc, "run", "example.mlir"]
    for argument in arguments:
        name, equals, expression = argument.partition("=")
        if equals and name.endswith(".npy") and not name.startswith("-"):
            np.save(os.path.join(workdir, name),
                    eval(expression, {"np": np}))  # the page's own values
            command.append(name)
        else:
            command.append(argument)
    result = subprocess.run(command, cwd=workdir, capture_output=True,
                            text=True)
    return result.returncode, result.stdout, result.stderr


def difference(expected, got):
    return "".join(difflib.unified_diff(
        expected.splitlines(True), got.splitlines(True), "page", "pcc"))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    pcc, page = sys.argv[1], sys.argv[2]
    # The programs run in directories of their own.
    if os.sep in pcc:
        pcc = os.path.abspath(pcc)
    with open(page, encoding="utf-8") as file:
        text = file.read()
    try:
        examples = collect_examples(text)
    except PageError as error:
        print(f"{page}: {error}")
        return 1
    if not examples:
        print(f"{page}: no program is marked <!-- run -->")
        return 1
    failed = 0
    for line, mode, arguments, program, expected in examples:
        with tempfile.TemporaryDirectory() as workdir:
            status, out, err = run_example(pcc, mode, arguments, program,
                                           workdir)
        want_status, got = (1, err) if mode == "run-fails" else (0, out)
        if status == want_status and got == expected:
            print(f"PASS line {line}")
            continue
        failed += 1
        print(f"FAIL line {line}: exit status {status} (expected "
              f"{want_status})")
        print(difference(expected, got) or err, end="")
    print(f"examples: {len(examples) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
