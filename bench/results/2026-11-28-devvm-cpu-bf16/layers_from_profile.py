# SPDX-License-Identifier: Apache-2.0
"""Per-layer-kind milliseconds of ResNet-50 from `tfaot bench --profile`
traces: every timed op is given to the layer its TF node belongs to
(conv4_block1_2_conv/Conv2D and conv4_block1_2_relu/Relu both to
conv4_block1_2), so a bf16 layer's rounding/im2col generic, kernel call and
epilogue count together, as an fp32 layer's fused loop nest does; the
residual adds (convN_blockM_out) and the rest are listed apart. Medians per
op over all runs of all files given.
usage: layers_from_profile.py A.json [B.json ...]"""
import collections
import json
import re
import statistics
import sys

durations = collections.defaultdict(list)
runs = []
for path in sys.argv[1:]:
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") == "op":
            durations[e["name"]].append(e["dur"] / 1000)
        elif e.get("cat") == "run":
            runs.append(e["dur"] / 1000)


def kind(node):
    m = re.match(r"conv(\d)_block\d+_(\d)_", node)
    if node.startswith("conv1_"):
        return "conv1 7x7/2 (+ its ReLU)"
    if m:
        return f"stage {m.group(1)} " + {"0": "1x1 projection", "1":
                                         "1x1 reduce", "2": "3x3", "3":
                                         "1x1 expand"}[m.group(2)]
    if re.match(r"conv\d_block\d+_out", node):
        return "residual add + ReLU"
    return "other (pools, classifier, softmax)"


groups = collections.defaultdict(float)
for name, values in durations.items():
    m = re.search(r"'([^']+)'", name)
    groups[kind(m.group(1) if m else name)] += statistics.median(values)
print(f"Run() median {statistics.median(runs):.2f} ms over {len(runs)} "
      f"profiled runs; sum of op medians {sum(groups.values()):.2f} ms")
for k in sorted(groups):
    print(f"| {k} | {groups[k]:.2f} |")
