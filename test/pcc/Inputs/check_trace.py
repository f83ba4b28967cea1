"""Checks a trace of Inputs/trace_program.mlir (--trace, PCC_TRACE): valid
JSON in Chrome's trace-event format, one track per device, every span
inside its device's pmap run, each collective's waits and transfer inside
it, a pmap run's compute and collectives adding up to the run, and each
collective named by its op and source location. Prints a summary.

usage: check_trace.py TRACE DEVICES RUNS

DEVICES: how many (devices 0 to DEVICES-1), or FIRST-LAST, the devices of
one process of an MPI job, whose trace holds only theirs.
"""

import json
import sys

EPS = 0.002  # microseconds: the file rounds times to nanoseconds


def fail(message):
    print(f"bad trace: {message}")
    sys.exit(1)


def inside(inner, outer):
    return (outer["ts"] - EPS <= inner["ts"] and
            inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"] + EPS)


def main():
    path, runs = sys.argv[1], int(sys.argv[3])
    first, _, last = sys.argv[2].partition("-")
    devices = (range(int(first), int(last) + 1) if last
               else range(int(first)))
    with open(path) as handle:
        trace = json.load(handle)
    events = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    if names != {d: f"device {d}" for d in devices}:
        fail(f"device tracks {names}")
    for device in devices:
        mine = [e for e in events if e["tid"] == device]
        pmaps = [e for e in mine if e["cat"] == "pmap"]
        if len(pmaps) != runs:
            fail(f"device {device}: {len(pmaps)} pmap runs, not {runs}")
        collectives = [e for e in mine if e["cat"] == "collective"]
        for pmap in pmaps:
            parts = [e for e in mine if e["cat"] in ("compute", "collective")
                     and inside(e, pmap)]
            ops = sorted(e["name"] for e in parts if e["cat"] == "collective")
            if ops != ["all_gather"] + ["psum"] * 5:
                fail(f"device {device}: collectives {ops} in a pmap run")
            total = sum(e["dur"] for e in parts)
            if abs(total - pmap["dur"]) > EPS * (len(parts) + 1):
                fail(f"device {device}: compute and collectives add up to "
                     f"{total} us of a {pmap['dur']} us run")
        for e in mine:
            if e["cat"] != "pmap" and not any(inside(e, p) for p in pmaps):
                fail(f"device {device}: {e} outside every pmap run")
        for e in (e for e in mine if e["cat"] in ("wait", "transfer")):
            owner = [c for c in collectives if inside(e, c)
                     and c["args"]["site"] == e["args"]["site"]]
            if len(owner) != 1:
                fail(f"device {device}: {e} not inside one collective")
        for c in collectives:
            children = [e for e in mine if e["cat"] in ("wait", "transfer")
                        and inside(e, c)]
            if not children or sum(e["dur"] for e in children) > c["dur"] + EPS * 3:
                fail(f"device {device}: the parts of {c} do not fit in it")
            line = {"psum": ":9:12", "all_gather": ":13:10"}[c["name"]]
            if not c["args"]["site"].startswith(f"spmd.{c['name']} over") or \
                    not c["args"]["site"].endswith(line):
                fail(f"device {device}: site {c['args']['site']}")
    print(f"trace valid: {len(devices)} devices, {runs} runs, "
          f"{len(events)} spans")


if __name__ == "__main__":
    main()
