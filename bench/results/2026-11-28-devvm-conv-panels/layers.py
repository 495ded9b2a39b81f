# SPDX-License-Identifier: Apache-2.0
"""Per-convolution times and % of the FMA peak from `tfaot bench --profile`
traces of the generated ResNet-50 or MobileNetV2.

    python3 layers.py PEAK_GFLOPS trace.json [trace.json ...] [--only REGEX]
                      [--batch N]

Each layer's minimum over all profiled runs of the traces given (one build per
call); FLOPs are 2 x multiply-adds from the networks' shapes below, times the
batch (a profile sums an op's calls within a run, so a batch computed in
chunks reads as the whole batch).
"""
import bisect
import collections
import json
import re
import sys


def resnet50_macs():
    macs = {"conv1_conv": 112 * 112 * 64 * 7 * 7 * 3}
    inputs = 64
    for stage, (width, blocks, side) in enumerate(
            [(64, 3, 56), (128, 4, 28), (256, 6, 14), (512, 3, 7)]):
        for block in range(blocks):
            name = f"conv{stage + 2}_block{block + 1}"
            strided = block == 0 and stage > 0
            reduce_side = side * 2 if strided else side
            # v1.5: the stride is on the 3x3; the 1x1 reduce sees the input.
            if block == 0:
                macs[name + "_0_conv"] = side * side * inputs * 4 * width
            macs[name + "_1_conv"] = reduce_side**2 * inputs * width
            macs[name + "_2_conv"] = side * side * 9 * width * width
            macs[name + "_3_conv"] = side * side * width * 4 * width
            inputs = 4 * width
    return macs


def mobilenet_v2_macs():
    """The full (not depthwise) convolutions of MobileNetV2 1.0 at 224."""
    macs = {"Conv1": 112 * 112 * 32 * 3 * 9}
    macs["expanded_conv_project"] = 112 * 112 * 32 * 16
    channels, side, block = 16, 112, 1
    for expand, out, repeats, stride in [(6, 24, 2, 2), (6, 32, 3, 2),
                                         (6, 64, 4, 2), (6, 96, 3, 1),
                                         (6, 160, 3, 2), (6, 320, 1, 1)]:
        for r in range(repeats):
            wide = channels * expand
            macs[f"block_{block}_expand"] = side * side * channels * wide
            if r == 0:
                side //= stride
            macs[f"block_{block}_project"] = side * side * wide * out
            channels, block = out, block + 1
    macs["Conv_1"] = side * side * 320 * 1280
    return macs


MACS = {**resnet50_macs(), **mobilenet_v2_macs()}


def layer_of(op_name):
    """The layer of a profiled convolution op: its TF node, less /Conv2D."""
    if "conv_2d_nhwc_hwcf" not in op_name:
        return None
    match = re.search(r"'(?:[^']*/)?([^'/]+)/Conv2D'", op_name)
    return match.group(1) if match and match.group(1) in MACS else None


def layer_minima(paths):
    """The profiled Run() times and each layer's fastest time in a run."""
    best = collections.defaultdict(lambda: float("inf"))
    runs = []
    for path in paths:
        events = [e for e in json.load(open(path))["traceEvents"]
                  if e.get("ph") == "X"]
        spans = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                       if e.get("cat") == "run")
        runs += [(end - begin) / 1000 for begin, end in spans]
        starts = [begin for begin, _ in spans]
        # A layer's time in a run: the sum of its calls (one, or one per
        # chunk of a batch run in chunks).
        per_run = collections.defaultdict(float)
        for e in events:
            layer = layer_of(e["name"]) if e.get("cat") != "run" else None
            if layer:
                run = bisect.bisect_right(starts, e["ts"]) - 1
                per_run[(run, layer)] += e["dur"] / 1000
        for (_, layer), ms in per_run.items():
            best[layer] = min(best[layer], ms)
    return runs, best


def main():
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = re.compile(args[i + 1])
        del args[i:i + 2]
    batch = 1
    if "--batch" in args:
        i = args.index("--batch")
        batch = int(args[i + 1])
        del args[i:i + 2]
    peak = float(args[0])
    runs, best = layer_minima(args[1:])
    total_ms = total_mflop = 0
    print(f"{len(runs)} runs, fastest Run() {min(runs):.2f} ms; peak {peak}")
    print("| layer | ms (min) | MFLOP | GFLOP/s | % of peak |")
    print("|---|---|---|---|---|")
    for layer in sorted(best, key=lambda k: list(MACS).index(k)):
        ms, mflop = best[layer], 2 * batch * MACS[layer] / 1e6
        total_ms += ms
        total_mflop += mflop
        if only and not only.search(layer):
            continue
        gflops = mflop / ms
        print(f"| {layer} | {ms:.3f} | {mflop:.0f} | {gflops:.0f} | "
              f"{100 * gflops / peak:.0f} |")
    print(f"| all {len(best)} | {total_ms:.2f} | {total_mflop:.0f} | "
          f"{total_mflop / total_ms:.0f} | "
          f"{100 * total_mflop / total_ms / peak:.0f} |")


if __name__ == "__main__":
    main()
