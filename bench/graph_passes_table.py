#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints docs/passes.md's table of what the graph passes do to each corpus model.

For every TF.js corpus model the e2e tests compile (same feeds and fetches:
the commands come from the build, see corpus_table.py), runs
`tfaot compile --emit=bufferized --report --json` with --layout=nhwc and
--layout=nchw and tabulates, from the reports: per-channel affine ops
(batch norm, Mul/Add by constants) folded into convolution weights, Pads
folded into convolution padding, convolutions/matmuls fused with their
elementwise epilogue into one loop nest, Transpose ops imported and left after the
passes (inside the graph, and at its inputs/outputs) for each layout, and
the arena against its lower bound (the most bytes live at once).

    bench/graph_passes_table.py [--build build] [--json out.json]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_table import comparisons  # noqa: E402


def report(cmd, layout):
    """The --report --json object of one compile command at `layout`."""
    args = [a for a in cmd if not a.startswith("--layout")]
    for flag in ("--out_header", "--out_function_object"):
        if flag in args:
            i = args.index(flag)
            del args[i:i + 2]
    args += ["--layout=" + layout, "--emit=bufferized", "-o", os.devnull,
             "--report", "--json"]
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1])
    return json.loads(proc.stdout)


def count(rep, pass_name, what_prefix):
    return sum(r["count"] for r in rep["rewrites"]
               if r["pass"] == pass_name and r["what"].startswith(what_prefix))


def mib(n):
    return f"{n / 2**20:.2f} MiB"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--json", help="also write the raw figures here")
    args = parser.parse_args()
    tests = comparisons(args.build)
    if not tests:
        sys.exit("graph_passes_table: no e2e.tfjs comparisons in "
                 f"{args.build}; build the tests first")
    rows, raw = [], {}
    for name, (cmd, _) in sorted(tests.items()):
        graph = cmd[cmd.index("--graph") + 1]
        # One row per corpus model, compiled with the default flags.
        if "/corpus/tfjs/" not in graph or any(
                a.startswith(("--layout", "--graph_passes")) for a in cmd):
            continue
        nhwc, nchw = report(cmd, "nhwc"), report(cmd, "nchw")
        raw[name] = {"nhwc": nhwc, "nchw": nchw}
        memory = nhwc["memory"]
        imported = nhwc["ops_imported"].get("Transpose", 0)

        def left(rep):
            inside = count(rep, "tfaot-assign-layout", "Transpose left")
            boundary = count(rep, "tfaot-assign-layout", "Transpose kept")
            return f"{inside} + {boundary}"

        folded = count(nhwc, "tfaot-fold-batch-norm", "folded")
        fused = count(nhwc, "tfaot-fuse-epilogues", "fused")
        pads = count(nhwc, "tfaot-simplify", "folded Pad")
        ratio = memory["arena_bytes"] / max(1, memory["peak_live_bytes"])
        rows.append(f"| {name} | {folded} | {pads} | {fused} | {imported} | "
                    f"{left(nhwc)} | {left(nchw)} | "
                    f"{mib(memory['arena_bytes'])} | "
                    f"{mib(memory['peak_live_bytes'])} | {ratio:.3f} |")
    print("| model | affine ops folded | Pads folded | epilogues fused "
          "| Transposes imported "
          "| left, NHWC (inside + at I/O) | left, NCHW (inside + at I/O) "
          "| arena | lower bound | arena / bound |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(raw, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
