#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarize an ncu CSV (scripts/gpu-server-checks.sh gpu-profile step).

usage: bench/gpu/profile_summary.py PROFILE.csv [--top N]

Prints the kernels' total time split into tfaot's generated kernels and
library (cuBLAS) kernels, then the N slowest kernels with their grids.
Accepts ncu's raw page (with its ==PROF== preamble) or the trimmed
kernel,grid,block,ns CSV kept in bench/results.
"""
import argparse
import collections
import csv
import io


def kernels(path):
    text = open(path).read()
    if '"ID","Process ID"' in text:  # ncu --csv --page raw
        rows = list(csv.reader(io.StringIO(text[text.index('"ID","Process ID"'):])))
        head, data = rows[0], rows[2:]  # rows[1]: units
        name, grid, ns = (head.index(k) for k in
                          ("Kernel Name", "Grid Size", "gpu__time_duration.sum"))
        return [(r[name], r[grid], float(r[ns].replace(",", ""))) for r in data]
    rows = list(csv.DictReader(io.StringIO(text)))
    return [(r["kernel"], r["grid"], float(r["ns"])) for r in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    ks = kernels(args.profile)
    groups = collections.defaultdict(lambda: [0, 0.0])
    for name, _, ns in ks:
        group = "tfaot kernels" if name.startswith("tfaot") else "library kernels"
        groups[group][0] += 1
        groups[group][1] += ns
    total = sum(ns for _, _, ns in ks)
    print(f"{len(ks)} kernels, {total / 1e3:.1f} us in all")
    for group, (count, ns) in sorted(groups.items()):
        print(f"  {group}: {count}, {ns / 1e3:.1f} us ({100 * ns / total:.0f}%)")
    print(f"slowest {args.top}:")
    for name, grid, ns in sorted(ks, key=lambda k: -k[2])[:args.top]:
        print(f"  {ns / 1e3:8.1f} us  grid {grid:14}  {name[:70]}")


if __name__ == "__main__":
    main()
