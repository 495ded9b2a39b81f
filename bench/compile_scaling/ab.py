#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whole compiles of run.py's chain graph by two tfaot binaries, alternating.

usage: ab.py A_TFAOT B_TFAOT [--nodes 1000,10000,30000,100000] [--repeats 3]

For each round and size, compiles the graph to an object with A, then B
(so that load drifts affect both alike), under /usr/bin/time, and prints
each sample, then per size and binary the median CPU seconds (user + sys),
peak resident MiB and --verbose's stage wall times, B/A, and each binary's
CPU growth from the first size.
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import phases  # noqa: E402  (timed)
import run  # noqa: E402  (the graph generator)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--nodes", default="1000,10000,30000,100000")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    sizes = [int(x) for x in args.nodes.split(",")]
    binaries = {"A": args.a, "B": args.b}
    samples = {(n, v): [] for n in sizes for v in binaries}
    with tempfile.TemporaryDirectory() as work:
        cmds = {}
        for n in sizes:
            text, fetch = run.graph(n)
            path = os.path.join(work, "chain%d.pbtxt" % n)
            with open(path, "w") as f:
                f.write(text)
            cmds[n] = ["compile", "--verbose", "--graph", path, "--feed", "x",
                       "--fetch", fetch, "--cpp_class", "bench::Chain",
                       "--out_header", os.path.join(work, "m.h"),
                       "--out_function_object", os.path.join(work, "m.o")]
        for r in range(args.repeats):
            for n in sizes:
                for v, binary in binaries.items():
                    cpu, peak, stages = phases.timed([binary] + cmds[n])
                    samples[(n, v)].append((cpu, peak, stages))
                    print("round %d %7d %s: %.2f s CPU, %.0f MiB, stages %s"
                          % (r + 1, n, v, cpu, peak, stages), flush=True)
    med = {}
    for key, runs in samples.items():
        med[key] = (statistics.median(c for c, _, _ in runs),
                    statistics.median(m for _, m, _ in runs))
    print("| nodes | A: CPU s | B: CPU s | B/A | A: peak MiB | B: peak MiB |")
    print("|---|---|---|---|---|---|")
    for n in sizes:
        a, b = med[(n, "A")], med[(n, "B")]
        print("| %d | %.2f | %.2f | %.2f | %.0f | %.0f |"
              % (n, a[0], b[0], b[0] / a[0], a[1], b[1]))
    for v in binaries:
        base = med[(sizes[0], v)][0]
        print("%s CPU growth from %d: %s" % (v, sizes[0], ", ".join(
            "%d: %.1fx" % (n, med[(n, v)][0] / base) for n in sizes[1:])))
    stage_names = list(samples[(sizes[-1], "A")][0][2])
    for n in sizes:
        for v in binaries:
            print("%7d %s median stage wall s: %s" % (n, v, ", ".join(
                "%s %.2f" % (s, statistics.median(
                    x[2].get(s, 0) for x in samples[(n, v)]))
                for s in stage_names)))


if __name__ == "__main__":
    main()
