#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Layer by layer against ONNX Runtime: where tfaot loses time to its
strongest CPU peer on ResNet-50 or MobileNetV2.

    /usr/bin/python3 bench/layers_vs_ort.py --ort-modules DIR --work DIR
        [--model resnet50|mobilenet_v2] [--threads 1] [--seconds 4]
        [--build build]

--work is the folder bench/cpu_peers.py left (MODEL.pb and MODEL.onnx, the
same network for both). Runs ONNX Runtime with its profiler
(bench/peers/ort_profile.js) and then `tfaot bench --profile`, one after the
other (a profile is not a timing: both profilers add a little per node),
takes each node's median over the runs, maps both sides to the Keras layer
names (ONNX Runtime's node names come from bench/peers/torch_time.py's
modules, in order) and prints a table sorted by the difference, tfaot
first where it is slower. A tfaot layer is everything its profile names
after that layer: the convolution with its fused epilogue, Winograd's
transforms and products, a padding copy. The two profiles run minutes
apart: on a machine whose speed drifts, compare the whole-run times
printed first (and the layers where the two should agree, such as the
classifier) before reading the differences, and run it again when they
disagree. Needs node with onnxruntime-node in DIR
(../shared/bench/ort_peer/README.md).
"""
import argparse
import bisect
import collections
import glob
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Stage of each of ResNet-50's torch modules /4 ... /19 (bottleneck blocks).
RESNET_STAGES = [2] * 3 + [3] * 4 + [4] * 6 + [5] * 3


def resnet_layer(onnx_name):
    """conv{stage}_block{b}_{0..3}, conv1, pool1 or predictions for an ONNX
    Runtime node of torch_time.py's ResNet-50, or None."""
    m = re.match(r"/(\d+)/(body|shortcut)/\w+\.(\d+)", onnx_name)
    if m:
        module = int(m.group(1))
        if not 4 <= module <= 19:
            return None
        stage = RESNET_STAGES[module - 4]
        block = module - 4 - RESNET_STAGES.index(stage) + 1
        if m.group(2) == "shortcut":
            kind = 0
        else:  # body.2: first 1x1 + ReLU, body.5: 3x3 + ReLU, body.6/7: last
            kind = {2: 1, 5: 2, 6: 3, 7: 3}.get(int(m.group(3)))
            if kind is None:
                return None
        return f"conv{stage}_block{block}_{kind}"
    simple = {"/2/": "conv1", "/3/": "pool1"}
    for prefix, layer in simple.items():
        if onnx_name.startswith(prefix):
            return layer
    return "predictions" if "Gemm" in onnx_name else None


def mobilenet_layer(onnx_name):
    """Conv1, expanded_conv_{depthwise,project}, block_{n}_{expand,
    depthwise,project}, Conv_1 or predictions for an ONNX Runtime node of
    torch_time.py's MobileNetV2, or None."""
    m = re.match(r"/(\d+)/body/body\.(\d+)", onnx_name)
    if m:
        module, part = int(m.group(1)), int(m.group(2))
        if module == 3:  # no expansion: depthwise, then projection
            return {2: "expanded_conv_depthwise",
                    3: "expanded_conv_project"}.get(part)
        kind = {2: "expand", 5: "depthwise", 6: "project"}.get(part)
        return f"block_{module - 3}_{kind}" if kind else None
    if onnx_name.startswith("/2/"):
        return "Conv1"
    if onnx_name.startswith("/22/"):
        return "Conv_1"
    return "predictions" if "Gemm" in onnx_name else None


MODELS = {
    "resnet50": (resnet_layer, re.compile(
        r"(conv\d_block\d_\d|conv1|pool1|predictions)")),
    "mobilenet_v2": (mobilenet_layer, re.compile(
        r"(block_\d+_(?:expand|depthwise|project)|expanded_conv_"
        r"(?:depthwise|project)|Conv1|Conv_1|predictions)")),
}


def ort_layers(trace_path, layer_of):
    """Median ms per layer over the runs in ONNX Runtime's trace."""
    with open(trace_path) as f:
        events = json.load(f)
    per_node = collections.defaultdict(list)
    for e in events:
        name = e.get("name", "")
        if e.get("cat") == "Node" and name.endswith("_kernel_time"):
            per_node[name[:-len("_kernel_time")]].append(e["dur"] / 1000)
    runs = [e["dur"] / 1000 for e in events if e.get("name") == "model_run"]
    layers = collections.defaultdict(float)
    for node, times in per_node.items():
        layer = layer_of(node)
        if layer:
            layers[layer] += statistics.median(times)
    return layers, statistics.median(runs) if runs else float("nan")


def tfaot_layers(trace_path, pattern):
    """Median ms per layer over the runs in `tfaot bench --profile`'s
    trace (events of the calling thread)."""
    with open(trace_path) as f:
        events = json.load(f)["traceEvents"]
    runs = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                  if e.get("cat") == "run")
    per_run = collections.defaultdict(lambda: [0.0] * len(runs))
    starts = [start for start, _ in runs]
    for e in events:
        if e.get("cat") != "op" or e.get("tid") != 1:
            continue
        m = pattern.search(e["name"])
        if not m:
            continue
        i = bisect.bisect_right(starts, e["ts"]) - 1
        if i >= 0 and e["ts"] < runs[i][1]:
            per_run[m.group(1)][i] += e["dur"] / 1000
    layers = {layer: statistics.median(v) for layer, v in per_run.items()}
    run_ms = statistics.median(end - start for start, end in runs) / 1000
    return layers, run_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ort-modules", required=True,
                        help="node_modules folder with onnxruntime-node")
    parser.add_argument("--work", required=True,
                        help="bench/cpu_peers.py's --work folder")
    parser.add_argument("--model", choices=sorted(MODELS),
                        default="resnet50")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    layer_of, pattern = MODELS[args.model]
    graph = os.path.join(args.work, args.model + ".pb")
    onnx = os.path.join(args.work, args.model + ".onnx")
    for path in (graph, onnx):
        if not os.path.exists(path):
            sys.exit(f"layers_vs_ort: {path}: not found (run "
                     "bench/cpu_peers.py with this --work first)")

    prefix = os.path.join(args.work, f"ort_profile_{args.model}")
    for old in glob.glob(prefix + "_*.json"):
        os.remove(old)
    env = dict(os.environ, NODE_PATH=args.ort_modules)
    subprocess.run(["node", os.path.join(ROOT, "bench", "peers",
                                         "ort_profile.js"), onnx,
                    str(args.threads), "1,3,224,224", str(args.seconds),
                    prefix], env=env, check=True)
    traces = glob.glob(prefix + "_*.json")
    if len(traces) != 1:
        sys.exit(f"layers_vs_ort: ONNX Runtime wrote {len(traces)} "
                 f"profiles as {prefix}_*.json")
    ort, ort_run = ort_layers(traces[0], layer_of)

    profile = os.path.join(args.work, f"tfaot_profile_{args.model}.json")
    subprocess.run([os.path.join(args.build, "bin", "tfaot"), "bench",
                    "--graph", graph, "--feed", "input:1,224,224,3",
                    "--fetch", "probs", "--target_cpu", "native",
                    f"--threads={args.threads}", f"--min_time={args.seconds}",
                    "--quiet", "--profile", profile], check=True,
                   stdout=subprocess.DEVNULL)
    tfaot, tfaot_run = tfaot_layers(profile, pattern)

    print(f"# {args.model}, batch 1, {args.threads} thread(s): per-layer "
          "medians (ms) under each runtime's profiler")
    print()
    print(f"Whole run: tfaot {tfaot_run:.2f} ms, ONNX Runtime "
          f"{ort_run:.2f} ms.")
    print()
    print("| layer | tfaot | ONNX Runtime | tfaot - ORT |")
    print("|---|---|---|---|")
    rows = sorted(set(tfaot) & set(ort),
                  key=lambda layer: ort[layer] - tfaot[layer])
    for layer in rows:
        print(f"| {layer} | {tfaot[layer]:.3f} | {ort[layer]:.3f} | "
              f"{tfaot[layer] - ort[layer]:+.3f} |")
    print(f"| all {len(rows)} | {sum(tfaot[r] for r in rows):.2f} | "
          f"{sum(ort[r] for r in rows):.2f} | "
          f"{sum(tfaot[r] - ort[r] for r in rows):+.2f} |")
    missing = sorted(set(tfaot) ^ set(ort))
    if missing:
        print()
        print("Not matched (on one side only): " + ", ".join(missing))


if __name__ == "__main__":
    main()
