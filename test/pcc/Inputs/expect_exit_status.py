"""Runs a command and checks its exact exit status.

usage: expect_exit_status.py STATUS COMMAND [ARG ...]

The command's standard input, output and error pass through. Prints
`exit status N` and exits with 0 if N == STATUS, else with 1 (`not` only
checks that a status is nonzero; docs/language.md promises 0 on success and
exactly 1 on any error, never a signal).
"""

import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
sys.stdout.flush()
print(f"exit status {status}")
sys.exit(0 if status == expected else 1)
