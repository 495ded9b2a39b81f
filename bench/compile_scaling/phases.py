#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile time by phase, with and without a flag, on run.py's chain graph.

usage: phases.py [--tfaot build/bin/tfaot] [--nodes 10000,30000,100000]
                 [--repeats 2] [--a '--max_function_ops=0'] [--b '']

For each size, compiles run.py's graph (x float32[1,64], blocks of
Relu(y * c_i + b_i)) to an object with the flags of variant A and of
variant B, alternating A, B, A, B, ... so that load drifts affect both
alike, and measures each compile twice: in full, and stopped at the LLVM
dialect (--emit llvm), both under /usr/bin/time (user + sys CPU seconds,
peak resident memory). The difference is the CPU of LLVM (opt and code
generation); `--verbose`'s stage wall times are printed as well. Prints
medians per size and variant.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the graph generator)

STAGE = re.compile(r"^tfaot: (.*?)(?: \(batch \d+\))?: ([0-9.]+) s$")


def timed(cmd):
    """(CPU seconds, peak MiB, {stage: wall seconds}) of one command."""
    full = ["/usr/bin/time", "-f", "TIME %U %S %M"] + cmd
    done = subprocess.run(full, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), done.stderr[-3000:]))
    stages = {}
    cpu = peak = None
    for line in done.stderr.splitlines():
        m = STAGE.match(line)
        if m:
            stages[m.group(1)] = float(m.group(2))
        if line.startswith("TIME "):
            _, user, sys_, kib = line.split()
            cpu, peak = float(user) + float(sys_), int(kib) / 1024
    return cpu, peak, stages


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tfaot", default="build/bin/tfaot")
    p.add_argument("--nodes", default="10000,30000,100000")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--a", default="--max_function_ops=0")
    p.add_argument("--b", default="")
    args = p.parse_args()
    variants = {"A": shlex.split(args.a), "B": shlex.split(args.b)}
    with tempfile.TemporaryDirectory() as work:
        for n in [int(x) for x in args.nodes.split(",")]:
            text, fetch = run.graph(n)
            path = os.path.join(work, "chain%d.pbtxt" % n)
            with open(path, "w") as f:
                f.write(text)
            base = [args.tfaot, "compile", "--verbose", "--graph", path,
                    "--feed", "x", "--fetch", fetch, "--cpp_class",
                    "bench::Chain"]
            obj = base + ["--out_header", os.path.join(work, "m.h"),
                          "--out_function_object", os.path.join(work, "m.o")]
            mlir = base + ["--emit", "llvm", "-o", os.devnull]
            rows = {v: [] for v in variants}
            for _ in range(args.repeats):
                for v, flags in variants.items():
                    whole = timed(obj + flags)
                    upto = timed(mlir + flags)
                    rows[v].append((whole, upto))
                    print("%7d %s: %.2f s CPU (to LLVM dialect %.2f), %.0f MiB;"
                          " stages %s" % (n, v, whole[0], upto[0], whole[1],
                                         whole[2]), flush=True)
            for v in variants:
                cpu = statistics.median(w[0] for w, _ in rows[v])
                mlir_cpu = statistics.median(u[0] for _, u in rows[v])
                peak = statistics.median(w[1] for w, _ in rows[v])
                llvm = statistics.median(w[0] - u[0] for w, u in rows[v])
                print("%7d %s median: %.2f s CPU, to LLVM dialect %.2f, LLVM "
                      "%.2f, %.0f MiB peak (%s)" % (n, v, cpu, mlir_cpu, llvm,
                                                    peak, " ".join(variants[v])
                                                    or "default"), flush=True)


if __name__ == "__main__":
    main()
