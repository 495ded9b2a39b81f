#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Times tfaot against ONNX Runtime (MLAS) and PyTorch (oneDNN) on the
generated networks, alternating, on this machine's CPU, and prints each
model's ratio to the faster peer and its fraction of the FMA peak.

    /usr/bin/python3 bench/cpu_peers.py --ort-modules DIR [--build build]
        [--models resnet50,mobilenet_v2,mlp,bert_layer] [--batches 1,8]
        [--threads 1,2] [--rounds 3] [--min-time 1] [--int8 | --int8-only]
        [--tfaot-args=--conv_algorithm=auto] [--work DIR] [--json out.json]

Each (model, batch, threads) is timed --rounds times in turn: `tfaot bench`
(--target_cpu native), ONNX Runtime 1.x from npm (`onnxruntime-node`,
bench/peers/ort_time.js; DIR is a node_modules folder holding it, see
../shared/bench/ort_peer/README.md for the install) on the same network
exported from bench/peers/torch_time.py (bench/peers/onnx_export.py), and
PyTorch (bench/peers/torch_time.py: eager or frozen TorchScript, whichever
is faster), so a load that comes and goes hits all three alike; each
figure is the median of the rounds' medians. --int8 adds `tfaot
--quantize=int8` and PyTorch's FX int8 (oneDNN, ../shared/bench/
torch_int8_peer.py) for the convolutional networks at batch 1: tfaot
three times: as it quantizes by default (the first convolution and the fc
layer kept in float), with --quantize_all_layers (every layer int8,
as PyTorch's FX int8 does) and with --quantize_residuals added (residual
adds read int8, as PyTorch's quantized add), each with the accuracy note
tfaot prints
(largest error and top-1 agreement against its float build on the
calibration images); --int8-only runs those rows alone.

% of peak: the model's multiply-add work (onnx_export.py's count: convs,
fully connected layers, attention products; 2 FLOP each) per second,
over --threads times one core's FMA peak, measured by bench/peak/fma_peak.c
(or --peak-gflops). Output: a Markdown table on stdout, progress on stderr.
Needs the build's tfaot and tfaot_gen_models, and Debian's python3-torch
(run with /usr/bin/python3).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = {"resnet50": ("input:{b},224,224,3", "{b},3,224,224", "probs"),
          "mobilenet_v2": ("input:{b},224,224,3", "{b},3,224,224", "probs"),
          "mlp": ("input:{b},784", "{b},784", "probs"),
          "bert_layer": ("input:{b},128,768", "{b},128,768", "output")}
CONVOLUTIONAL = ("resnet50", "mobilenet_v2")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run_json(cmd, env=None, stderr_lines=None):
    """The JSON object `cmd` prints; its standard error's lines are
    appended to `stderr_lines` if given."""
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"{cmd[0]} failed: {tail}")
    if stderr_lines is not None:
        stderr_lines.extend(proc.stderr.splitlines())
    try:  # tfaot bench --json prints one object over several lines,
        return json.loads(proc.stdout)
    except json.JSONDecodeError:  # the peers a line after their logs.
        return json.loads(proc.stdout.strip().splitlines()[-1])


# The int8 builds tfaot is timed as: the row label and its flags.
INT8_BUILDS = (("default", []),
               ("--quantize_all_layers", ["--quantize_all_layers"]),
               ("--quantize_all_layers --quantize_residuals",
                ["--quantize_all_layers", "--quantize_residuals"]))


def tfaot_ms(args, graph, model, batch, threads, quantize=None,
             accuracy=None):
    """Median ms per Run(). `quantize`: the int8 build's flags (None:
    float32); its accuracy note ("'probs' max |error| ..., top-1 agreement
    ...") is stored in accuracy[0] if given."""
    feed, _, fetch = SHAPES[model]
    cmd = [os.path.join(args.build, "bin", "tfaot"), "bench", "--graph",
           graph, "--feed", feed.format(b=batch), "--fetch", fetch,
           "--target_cpu", "native", f"--threads={threads}", "--json",
           f"--min_time={args.min_time}"]
    cmd += args.tfaot_args.split()
    if quantize is not None:
        # Calibration on 8 seeded uniform [0, 1) images, as bench/int8/run.py
        # does (the torch peer calibrates on 8 random batches too).
        samples = os.path.join(args.work, "calibration.npy")
        if not os.path.exists(samples):
            subprocess.run([sys.executable, os.path.join(
                ROOT, "test", "tools", "Inputs", "write_npy.py"), samples,
                "8", "224", "224", "3", "--seed", "1"], check=True)
        cmd += ["--quantize=int8", "--calibration", samples, *quantize]
    notes = []
    ms = run_json(cmd, stderr_lines=notes)["points"][0]["median_ms"]
    if accuracy is not None:
        for line in notes:  # "...; 'probs' max |error| ..., top-1 ..."
            if "note: int8:" in line and "top-1" in line and "; '" in line:
                accuracy[0] = line[line.index("; '") + 2:].strip()
    return ms


def ort_ms(args, model, batch, threads):
    env = dict(os.environ, NODE_PATH=args.ort_modules)
    script = os.path.join(ROOT, "bench", "peers", "ort_time.js")
    onnx = os.path.join(args.work, model + ".onnx")
    shape = SHAPES[model][1].format(b=batch)
    return run_json(["node", script, onnx, str(threads), shape,
                     str(args.min_time)], env)["median_ms"]


def torch_ms(args, model, batch, threads):
    script = os.path.join(ROOT, "bench", "peers", "torch_time.py")
    return run_json([sys.executable, script, "--model", model, "--batch",
                     str(batch), "--threads", str(threads), "--min_time",
                     str(args.min_time)])["median_ms"]


def torch_int8_ms(args, model, threads):
    script = os.path.join(ROOT, "..", "shared", "bench", "torch_int8_peer.py")
    return run_json([sys.executable, script, model, str(threads), ROOT])[
        "int8_median_ms"]


def measured_peak():
    exe = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tfaot_fma_peak")
    subprocess.run(["cc", "-O3", "-march=native",
                    os.path.join(ROOT, "bench", "peak", "fma_peak.c"), "-o",
                    exe], check=True)
    return float(subprocess.run([exe], capture_output=True, text=True,
                                check=True).stdout)


def cpu_name():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--ort-modules", required=True,
                        help="node_modules folder with onnxruntime-node")
    parser.add_argument("--models", default="resnet50,mobilenet_v2,mlp,"
                        "bert_layer")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--int8", action="store_true")
    parser.add_argument("--int8-only", action="store_true",
                        help="only the int8 rows (implies --int8)")
    parser.add_argument("--peak-gflops", type=float,
                        help="one core's fp32 FMA peak (default: measured)")
    parser.add_argument("--tfaot-args", default="",
                        help="more flags for every tfaot bench, e.g. "
                        "--conv_algorithm=auto")
    parser.add_argument("--work", default="/tmp/tfaot-cpu-peers")
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()
    models = args.models.split(",")
    unknown = set(models) - set(SHAPES)
    if unknown:
        parser.error(f"unknown models {sorted(unknown)}; known: "
                     f"{', '.join(SHAPES)}")
    os.makedirs(args.work, exist_ok=True)
    log("generating the GraphDefs and the ONNX files in", args.work)
    subprocess.run([os.path.join(args.build, "bin", "tfaot_gen_models"),
                    args.work, "--only", ",".join(models)], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "peers",
                                                 "onnx_export.py"),
                    args.work, *models], check=True)
    with open(os.path.join(args.work, "flops.json")) as f:
        flops = json.load(f)
    peak = args.peak_gflops or measured_peak()
    log(f"FMA peak: {peak:.1f} GFLOP/s per core")

    if args.int8_only:
        args.int8 = True
    rows = []
    for model in ([] if args.int8_only else models):
        graph = os.path.join(args.work, model + ".pb")
        for batch in map(int, args.batches.split(",")):
            for threads in map(int, args.threads.split(",")):
                times = {"tfaot": [], "ort": [], "torch": []}
                for r in range(args.rounds):
                    log(f"{model} b{batch} t{threads} round {r + 1}")
                    times["tfaot"].append(
                        tfaot_ms(args, graph, model, batch, threads))
                    times["ort"].append(ort_ms(args, model, batch, threads))
                    times["torch"].append(
                        torch_ms(args, model, batch, threads))
                row = {"model": model, "batch": batch, "threads": threads,
                       "rounds": times}
                row.update({k: statistics.median(v) for k, v in times.items()})
                gflops = flops[model] * batch / row["tfaot"] / 1e6
                row["tfaot_gflops"] = gflops
                row["peak_fraction"] = gflops / (peak * threads)
                rows.append(row)
    if args.tfaot_args:
        print(f"tfaot bench flags added: {args.tfaot_args}\n")
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores seen; FMA peak "
          f"{peak:.1f} GFLOP/s per core (measured); medians of "
          f"{args.rounds} alternating rounds, ms per Run()\n")
    if rows:
        print("| model | batch | threads | tfaot | ONNX Runtime | PyTorch | "
              "tfaot / best peer | tfaot GFLOP/s | % of peak |")
        print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        best = min(r["ort"], r["torch"])
        print(f"| {r['model']} | {r['batch']} | {r['threads']} | "
              f"{r['tfaot']:.3g} | {r['ort']:.3g} | {r['torch']:.3g} | "
              f"{r['tfaot'] / best:.2f} | {r['tfaot_gflops']:.1f} | "
              f"{100 * r['peak_fraction']:.0f}% |")

    int8_rows = []
    if args.int8:
        for model in [m for m in models if m in CONVOLUTIONAL]:
            graph = os.path.join(args.work, model + ".pb")
            accuracy = {name: [None] for name, _ in INT8_BUILDS}
            for threads in map(int, args.threads.split(",")):
                ours = {name: [] for name, _ in INT8_BUILDS}
                theirs = []
                for r in range(args.rounds):
                    log(f"int8 {model} t{threads} round {r + 1}")
                    for name, flags in INT8_BUILDS:
                        ours[name].append(tfaot_ms(
                            args, graph, model, 1, threads, quantize=flags,
                            accuracy=accuracy[name]))
                    theirs.append(torch_int8_ms(args, model, threads))
                for name, _ in INT8_BUILDS:
                    int8_rows.append({
                        "model": model, "build": name, "threads": threads,
                        "tfaot": statistics.median(ours[name]),
                        "torch": statistics.median(theirs),
                        "accuracy": accuracy[name][0],
                        "rounds": {"tfaot": ours[name], "torch": theirs}})
        print("\nint8, batch 1 (tfaot --quantize=int8 as it quantizes by "
              "default, conv1 and fc in float, with --quantize_all_layers, "
              "and with the int8 residual stream too; PyTorch FX int8, "
              "oneDNN, every layer int8, residual adds in int8; the same "
              "PyTorch figure on each model's rows):\n")
        print("| model | tfaot build | threads | tfaot | PyTorch int8 | "
              "tfaot / PyTorch |")
        print("|---|---|---|---|---|---|")
        for r in int8_rows:
            print(f"| {r['model']} | {r['build']} | {r['threads']} | "
                  f"{r['tfaot']:.3g} | {r['torch']:.3g} | "
                  f"{r['tfaot'] / r['torch']:.2f} |")
        print("\naccuracy of the tfaot int8 builds against their float "
              "build (8 calibration images):\n")
        for r in int8_rows:
            if r["threads"] == int(args.threads.split(",")[0]):
                print(f"- {r['model']}, {r['build']}: {r['accuracy']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_name(), "peak_gflops": peak,
                       "flops_per_item": flops, "fp32": rows,
                       "int8": int8_rows}, f, indent=1)


if __name__ == "__main__":
    main()
