# SPDX-License-Identifier: Apache-2.0
"""Checks the "outside the timed ops" line of `tfaot bench --profile`
against the trace of the same run, computed independently here.

usage: check_outside_ops.py TRACE.json SUMMARY.txt
For each Run() slice: its duration less the union of the op slices of the
main track (tid 1) inside it; the median of these over runs must be the
printed figure (to its 4 significant digits). Prints "outside ops: match"
and the run count, or exits 1 saying what differs.
"""
import json
import re
import statistics
import sys


def main(trace_path, summary_path):
    events = json.load(open(trace_path))["traceEvents"]
    runs = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                  if e.get("cat") == "run")
    ops = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                 if e.get("cat") == "op" and e["tid"] == 1)
    gaps = []
    for begin, end in runs:
        covered, reach = 0.0, begin
        for op_begin, op_end in ops:
            if op_begin < begin or op_begin >= end:
                continue
            lo, hi = max(reach, op_begin), min(end, op_end)
            if hi > lo:
                covered += hi - lo
            reach = max(reach, hi)
        gaps.append(max(0.0, end - begin - covered) / 1000)
    expected = statistics.median(gaps)
    text = open(summary_path).read()
    m = re.search(r"^\s*[0-9.]+%\s+(\S+)\s+\(outside the timed ops", text,
                  re.M)
    if not m:
        sys.exit("no 'outside the timed ops' line")
    printed = float(m.group(1))
    if abs(printed - expected) > 1e-3 * max(abs(expected), 1e-3):
        sys.exit("printed %g ms, the trace gives %g ms" % (printed, expected))
    print("outside ops: match over %d runs" % len(runs))


if __name__ == "__main__":
    main(*sys.argv[1:])
