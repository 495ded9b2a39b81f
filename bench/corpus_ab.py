#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times the models bench/compare.py compares with TF.js (the corpus TF.js
models and the generated ones, compiled as their e2e.tfjs tests compile
them) with two tfaot binaries, alternating, and prints each model's
medians and their ratio: is every model faster than with an older tfaot?

    bench/corpus_ab.py --baseline OLD/bin/tfaot [--candidate build/bin/tfaot]
                       [--build build] [--rounds 3] [--min-time 1]
                       [--threads 1] [--only a,b] [--json out.json]

Each round times the baseline and the candidate (`tfaot bench --batch 1
--target_cpu native`, random inputs), in the order A B in odd rounds and
B A in even ones, so that a drift of the machine's speed hits both alike;
the figure per binary is the median of its rounds' medians. A model the
baseline cannot compile (a flag or op it did not have yet) gets its error
instead of a ratio. The feeds and fetches come from --build's e2e.tfjs
test commands (build the tests first: scripts/test.sh).
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cpu_name, tfaot_bench, tfjs_models  # noqa: E402
from corpus_table import comparisons  # noqa: E402


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True,
                        help="the older tfaot binary")
    parser.add_argument("--candidate",
                        default=os.path.join(root, "build", "bin", "tfaot"))
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--target-cpu", default="native")
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()
    for binary in (args.baseline, args.candidate):
        if not os.access(binary, os.X_OK):
            sys.exit(f"corpus_ab: {binary}: not an executable")
    tests = comparisons(args.build)
    if not tests:
        sys.exit(f"corpus_ab: no e2e.tfjs comparisons in {args.build}; "
                 "build the tests first (scripts/test.sh)")
    binaries = {"baseline": args.baseline, "candidate": args.candidate}
    rows, raw = [], []
    for name, cmd in tfjs_models(tests, args.only):
        print(f"corpus_ab: {name}", file=sys.stderr, flush=True)
        rounds = {"baseline": [], "candidate": []}
        error = None
        for r in range(args.rounds):
            order = ["baseline", "candidate"]
            if r % 2:
                order.reverse()
            for which in order:
                try:
                    point = tfaot_bench([binaries[which]] + cmd[1:],
                                        args.min_time, args.target_cpu,
                                        threads=args.threads)
                except RuntimeError as e:
                    error = f"{which}: {e}"
                    break
                rounds[which].append(point["median_ms"])
            if error:
                break
        raw.append({"model": name, "rounds_ms": rounds, "error": error})
        if error:
            rows.append(f"| {name} | | | | {error} |")
            continue
        old = statistics.median(rounds["baseline"])
        new = statistics.median(rounds["candidate"])
        rows.append(f"| {name} | {old:.3g} | {new:.3g} | {new / old:.2f} | "
                    f"{', '.join(f'{x:.3g}' for x in rounds['baseline'])} / "
                    f"{', '.join(f'{x:.3g}' for x in rounds['candidate'])} |")
    print(f"Median ms per Run() at batch 1, {args.threads} thread(s), "
          f"{args.rounds} alternating rounds ({cpu_name()}, "
          f"{os.cpu_count()} cores; --target_cpu={args.target_cpu}). "
          f"Baseline {args.baseline}, candidate {args.candidate}. "
          f"Ratio < 1: the candidate is faster.\n")
    print("| model | baseline ms | candidate ms | candidate / baseline "
          "| rounds (baseline / candidate) |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"baseline": args.baseline,
                       "candidate": args.candidate, "threads": args.threads,
                       "rounds": args.rounds, "models": raw}, f, indent=1)


if __name__ == "__main__":
    main()
