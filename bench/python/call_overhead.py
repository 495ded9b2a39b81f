#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What calling a model from Python costs on top of the compiled code.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/call_overhead.py \
        GRAPH --feed x:1,784 --fetch y_pred [--tfaot build/bin/tfaot]

Times, in alternating rounds, one call of the same model through
tfaot.compile() (the JIT), through tfaot.load() of its
--out_shared_library build, and Run() alone as tfaot.bench() (the same
measurement as `tfaot bench`) times it, all on one thread with the same
input, and prints each one's median over the rounds (each round's figure
is the median of --calls calls).
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

import tfaot


def median_call_ms(model, x, calls):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        model(x)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graph")
    parser.add_argument("--feed", required=True)
    parser.add_argument("--fetch", action="append", required=True)
    parser.add_argument("--tfaot", default="build/bin/tfaot")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()

    jit = tfaot.compile(args.graph, feeds=args.feed, fetches=args.fetch)
    with tempfile.TemporaryDirectory() as tmp:
        library = os.path.join(tmp, "model.so")
        fetch_flags = [f for name in args.fetch for f in ("--fetch", name)]
        subprocess.run([args.tfaot, "compile", "--graph", args.graph,
                        "--feed", args.feed, *fetch_flags, "--cpp_class",
                        "bench::Model", "--out_shared_library", library],
                       check=True)
        loaded = tfaot.load(library)
        (info,) = jit.inputs
        x = np.random.default_rng(0).uniform(-1, 1, info.shape) \
            .astype(info.dtype)
        rounds = {"tfaot.compile() call": [], "tfaot.load() call": [],
                  "Run() alone (tfaot.bench)": []}
        for _ in range(args.rounds):
            rounds["tfaot.compile() call"].append(
                median_call_ms(jit, x, args.calls))
            rounds["tfaot.load() call"].append(
                median_call_ms(loaded, x, args.calls))
            figures = tfaot.bench(args.graph, feeds=args.feed,
                                  fetches=args.fetch, min_iters=args.calls,
                                  min_time=0)
            rounds["Run() alone (tfaot.bench)"].append(
                figures["points"][0]["median_ms"])
    print("%s, %s, one thread, median of %d rounds of %d calls:" %
          (os.path.basename(args.graph), info, args.rounds, args.calls))
    for what, values in rounds.items():
        print("  %-28s %8.4f ms" % (what, statistics.median(values)))


if __name__ == "__main__":
    main()
