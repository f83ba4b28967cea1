"""Starts an MPI job, kills one of its processes with SIGKILL once every
process runs, and reports how the job ended: its exit status (or "hang" if
it is still running after the limit) and whether it left a results
directory behind.

usage: kill_rank.py RANK LIMIT_SECONDS RESULTS_DIR MPIRUN_COMMAND...
"""

import os
import signal
import subprocess
import sys
import time
import uuid


def job_processes(token):
    """pid -> rank of the processes whose environment holds `token`."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
        except OSError:
            continue
        if f"PCC_KILL_TEST={token}".encode() not in environ:
            continue
        for item in environ:
            if item.startswith(b"OMPI_COMM_WORLD_RANK="):
                found[int(entry)] = int(item.split(b"=", 1)[1])
    return found


def main():
    rank, limit, results = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    command = sys.argv[4:]
    token = uuid.uuid4().hex
    env = dict(os.environ, PCC_KILL_TEST=token)
    job = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    # Wait until the job's processes run, and a little more, so that they
    # are in the middle of their collectives.
    victim = None
    deadline = time.time() + limit
    while victim is None and time.time() < deadline and job.poll() is None:
        processes = job_processes(token)
        if len(set(processes.values())) >= 2:
            victim = next(pid for pid, r in processes.items() if r == rank)
        time.sleep(0.1)
    if victim is None:
        print("the job's processes never all ran")
        os.killpg(job.pid, signal.SIGKILL)
        return 1
    time.sleep(2)
    os.kill(victim, signal.SIGKILL)
    try:
        output, _ = job.communicate(timeout=limit)
        status = f"exit status {job.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        output, _ = job.communicate()
        status = "hang"
    sys.stdout.write(output)
    print(f"killed rank {rank}: {status}")
    left = os.path.exists(results) and os.listdir(results)
    print("results left behind" if left else "no results left behind")
    return 0


if __name__ == "__main__":
    sys.exit(main())
