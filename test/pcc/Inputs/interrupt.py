"""Starts COMMAND..., sends it SIGINT after a second and checks that it ends
within two seconds with status 130 and the message `pcc: interrupted`."""

import signal
import subprocess
import sys
import time

process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
time.sleep(1.0)
if process.poll() is not None:
    sys.exit(f"ended before the interrupt with status {process.returncode}")
sent = time.monotonic()
process.send_signal(signal.SIGINT)
try:
    process.wait(timeout=2)
except subprocess.TimeoutExpired:
    process.kill()
    sys.exit("still running 2 s after SIGINT")
stderr = process.stderr.read()
print(f"status {process.returncode} within {time.monotonic() - sent < 2} s: "
      f"{stderr.strip()}")
