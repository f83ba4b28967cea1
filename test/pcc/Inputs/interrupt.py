"""Starts COMMAND..., sends it a signal (SIGINT, or the one named by
--signal) after a second and checks that it ends within two seconds; prints
its status and what it wrote on standard error."""

import argparse
import signal
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--signal", default="INT")
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()

process = subprocess.Popen(args.command, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
time.sleep(1.0)
if process.poll() is not None:
    sys.exit(f"ended before the signal with status {process.returncode}: "
             f"{process.stderr.read().strip()}")
sent = time.monotonic()
process.send_signal(getattr(signal, "SIG" + args.signal))
try:
    process.wait(timeout=2)
except subprocess.TimeoutExpired:
    process.kill()
    sys.exit(f"still running 2 s after SIG{args.signal}")
stderr = process.stderr.read()
print(f"status {process.returncode} within {time.monotonic() - sent < 2} s: "
      f"{stderr.strip()}")
