#!/usr/bin/env python3
"""Draws a trace of `pcc run --trace` (Chrome trace-event JSON) as one lane
per device: compute, waiting for the group and moving data, each pmap run
outlined. With --last, only the last pmap run.

usage: plot_trace.py TRACE OUT.png [--last] [--title TEXT]
"""

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"compute": "#4c72b0", "wait": "#c44e52", "transfer": "#55a868"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("out")
    parser.add_argument("--last", action="store_true",
                        help="only the last pmap run")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    with open(args.trace) as handle:
        events = [e for e in json.load(handle)["traceEvents"]
                  if e["ph"] == "X"]
    pmaps = [e for e in events if e["cat"] == "pmap"]
    start = min(e["ts"] for e in pmaps)
    if args.last:
        # From the earliest start among the devices' last runs.
        devices = {p["tid"] for p in pmaps}
        start = min(max(p["ts"] for p in pmaps if p["tid"] == d)
                    for d in devices)
        events = [e for e in events if e["ts"] >= start]
    devices = sorted({e["tid"] for e in events})
    fig, ax = plt.subplots(figsize=(10, 0.6 * len(devices) + 1.2))
    for e in events:
        y = devices.index(e["tid"])
        x, width = (e["ts"] - start) / 1e3, e["dur"] / 1e3
        if e["cat"] == "pmap":
            ax.barh(y, width, left=x, height=0.8, fill=False,
                    edgecolor="black", linewidth=0.8)
        elif e["cat"] in COLORS:
            ax.barh(y, width, left=x, height=0.6, color=COLORS[e["cat"]],
                    linewidth=0)
    ax.set_yticks(range(len(devices)), [f"device {d}" for d in devices])
    ax.invert_yaxis()
    ax.set_xlabel("ms")
    ax.set_title(args.title)
    fig.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=c)
                        for c in COLORS.values()],
               labels=["compute", "waiting for the group", "moving data"],
               loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
