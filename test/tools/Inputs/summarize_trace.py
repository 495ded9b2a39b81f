# SPDX-License-Identifier: Apache-2.0
"""Prints what a `tfaot bench --profile` Chrome trace holds, for FileCheck.

usage: summarize_trace.py TRACE.json
Prints the process name, each track (tid) with its thread name, and then,
sorted so the output does not depend on timing: the tracks that have op
slices, the tracks that ran parallel-loop chunks, and the distinct chunk
ranges with the op each belongs to, and each op's work (flop and bytes,
where the trace gives them). Fails (exit 1, saying why) when a slice
lies on a track no metadata event names, or a chunk lies outside every
Run() slice.
"""
import json
import sys


def main(path):
    events = json.load(open(path))["traceEvents"]
    meta = [e for e in events if e["ph"] == "M"]
    slices = [e for e in events if e["ph"] == "X"]
    for e in meta:
        if e["name"] == "process_name":
            print("process:", e["args"]["name"])
    names = {e["tid"]: e["args"]["name"] for e in meta
             if e["name"] == "thread_name"}
    for tid in sorted(names):
        print("track %d: %s" % (tid, names[tid]))
    unnamed = {e["tid"] for e in slices} - set(names)
    if unnamed:
        sys.exit("slices on unnamed tracks: %s" % sorted(unnamed))
    runs = [(e["ts"], e["ts"] + e["dur"]) for e in slices if e["cat"] == "run"]
    chunks = [e for e in slices if e["cat"] == "chunk"]
    for c in chunks:
        if not any(b <= c["ts"] and c["ts"] + c["dur"] <= e for b, e in runs):
            sys.exit("chunk outside every Run(): %s" % c)
    print("op tracks:", *sorted({e["tid"] for e in slices if e["cat"] == "op"}))
    print("chunk tracks:", *sorted({c["tid"] for c in chunks}))
    for name in sorted({c["name"] for c in chunks}):
        print("chunk:", name)
    work = {(e["name"], e["args"].get("flop", 0), e["args"].get("bytes", 0))
            for e in slices if e["cat"] == "op" and "args" in e}
    for name, flop, size in sorted(work):
        print("op work: %s: flop %d, bytes %d" % (name, flop, size))


if __name__ == "__main__":
    main(*sys.argv[1:])
