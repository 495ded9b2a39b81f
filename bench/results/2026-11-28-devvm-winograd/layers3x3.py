# SPDX-License-Identifier: Apache-2.0
"""ResNet-50's 3x3 stride-1 layers from `tfaot bench --profile` traces:
per stage, the sum over its layers of each op's median per Run() (the
Winograd form's input transform, 36 matmuls and their fills, output
transform with the epilogue, and the pad's fill all count), and GFLOP/s of
the direct convolution's FLOPs (2 x 3 x 3 x C_in x C_out per output pixel,
231.2 MFLOP per layer) against the 198 GFLOP/s FMA peak measured on this
machine. usage: layers3x3.py TRACE.json [TRACE.json ...] (one table each)"""
import collections
import json
import re
import statistics
import sys

PEAK = 198.0
MFLOP = 2 * 9 * 56 * 56 * 64 * 64 / 1e6  # the same for every stage
STRIDE1 = {"2": (1, 2, 3), "3": (2, 3, 4), "4": (2, 3, 4, 5, 6), "5": (2, 3)}

for path in sys.argv[1:]:
    trace = json.load(open(path))["traceEvents"]
    runs = [e for e in trace if e.get("cat") == "run"]
    times = collections.defaultdict(list)
    for e in trace:
        if e.get("ph") == "X" and e.get("cat") != "run":
            times[e["name"]].append(e["dur"] / 1000)
    stage_ms = collections.defaultdict(float)
    for name, durations in times.items():
        m = re.search(r"'conv(\d)_block(\d+)_2_", name)
        if not m or int(m.group(2)) not in STRIDE1[m.group(1)]:
            continue
        per_run = max(1, round(len(durations) / len(runs)))
        stage_ms[m.group(1)] += statistics.median(durations) * per_run
    print(f"{path}: profiled Run() median "
          f"{statistics.median(e['dur'] / 1000 for e in runs):.1f} ms, {len(runs)} runs")
    print("| stage | layers | ms | GFLOP/s | % of peak |")
    print("|---|---|---|---|---|")
    total = 0
    for stage in sorted(stage_ms):
        n = len(STRIDE1[stage])
        ms = stage_ms[stage]
        total += ms
        print(f"| {stage} | {n} | {ms:.2f} | {n * MFLOP / ms:.0f} | "
              f"{100 * n * MFLOP / ms / PEAK:.0f} |")
    print(f"| all | 13 | {total:.2f} | {13 * MFLOP / total:.0f} | "
          f"{100 * 13 * MFLOP / total / PEAK:.0f} |")
