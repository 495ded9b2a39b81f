#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times the same models with `tfaot bench` and with TensorFlow.js (its
WebAssembly backend, XNNPACK with SIMD, and its pure-JavaScript CPU backend)
in one run on this machine, one thread each, batch 1, and prints the
ratios.

    bench/compare.py [--build build] [--min-time 1] [--only a,b]
                     [--target-cpu native] [--json out.json]
                     [--torch] [--torch-batches 1,8] [--threads N]

The models are those the e2e.tfjs tests compile with default flags (the
corpus TF.js models, and the generated ResNet-50, MobileNetV2, MLP and BERT
layer of bench/models, which the build converts to TF.js for the oracle):
the feeds and fetches come from the build's own `tfaot compile` commands,
so a model is timed exactly as it is tested. Inputs are random (floats
uniform in [0, 1)) in both.

Needs a build with the tests (scripts/test.sh) and the peer packages:
`npm ci --ignore-scripts --prefix bench/peers` (see bench/README.md).
Output: a Markdown table on stdout, progress on stderr; --json also writes
every figure.

--threads N (other than 1) adds columns to that table: tfaot on N threads
(`tfaot bench --threads N`, the generated class's set_num_threads(N)); the
TF.js backends stay on one thread (the wasm backend does not start threads
in Node).

--torch adds a second table: the generated models (ResNet-50, MobileNetV2,
MLP, BERT layer) at each of --torch-batches, timed with `tfaot bench
--batch N` and with PyTorch on the same network (bench/peers/torch_time.py,
Debian's python3-torch: eager or frozen TorchScript, whichever is faster),
both with --threads threads.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_table import comparisons  # noqa: E402

GENERATED = ("gen-resnet50", "gen-mobilenet_v2", "gen-mlp", "gen-bert_layer")


def flag_values(cmd, flag):
    return [cmd[i + 1] for i, a in enumerate(cmd) if a == flag]


def tfjs_model(build, name, graph):
    """The TF.js model.json for a comparison: the corpus file itself, or the
    build's conversion of a frozen GraphDef."""
    if graph.endswith(".json"):
        return graph
    return os.path.join(build, "test", "e2e", "tfjs", "converted", name,
                        "model.json")


def tfjs_models(tests, only=None):
    """(name, tfaot compile command) of the models compared with TF.js: the
    corpus TF.js models and the generated ones, as their e2e.tfjs tests
    compile them with default flags; `only`: comma-separated names."""
    only = set(only.split(",")) if only else None
    for name, (cmd, _) in sorted(tests.items()):
        graph = cmd[cmd.index("--graph") + 1]
        default_flags = not any(
            a.startswith(("--layout", "--graph_passes", "--batch"))
            for a in cmd)
        if not default_flags or (only and name not in only):
            continue
        if "/corpus/tfjs/" not in graph and name not in GENERATED:
            continue
        yield name, cmd


def tfaot_bench(cmd, min_time, target_cpu, batch=None, threads=1):
    args = [cmd[0], "bench"]
    skip = {"--cpp_class", "--out_header", "--out_function_object"}
    rest = cmd[2:]
    i = 0
    while i < len(rest):
        if rest[i] in skip:
            i += 2
            continue
        args.append(rest[i])
        i += 1
    args += ["--json", f"--min_time={min_time}", f"--target_cpu={target_cpu}"]
    if batch is not None:
        args.append(f"--batch={batch}")
    if threads != 1:
        args.append(f"--threads={threads}")
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1])
    return json.loads(proc.stdout)["points"][0]


def tfjs_time(script, model, feeds, fetches, backend, min_time, iters):
    args = ["node", script, "--model", model, "--backend", backend,
            "--min_time", str(min_time), "--iters", str(iters)]
    for feed in feeds:
        args += ["--feed", feed]
    for fetch in fetches:
        args += ["--fetch", fetch]
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1])
    # TF.js may print a banner first; the figures are the last line.
    return json.loads(proc.stdout.strip().splitlines()[-1])


def torch_time(script, model, batch, threads, min_time):
    proc = subprocess.run(
        ["/usr/bin/python3", script, "--model", model, "--batch", str(batch),
         "--threads", str(threads), "--min_time", str(min_time)],
        capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError((proc.stderr.strip().splitlines() or ["failed"])[-1])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def torch_table(args, root, tests):
    """Rows comparing tfaot with PyTorch on the generated models."""
    script = os.path.join(root, "bench", "peers", "torch_time.py")
    batches = [int(b) for b in args.torch_batches.split(",")]
    rows, raw = [], []
    only = set(args.only.split(",")) if args.only else None
    for name in GENERATED:
        if name not in tests or (only and name not in only):
            continue
        cmd = tests[name][0]
        for batch in batches:
            print(f"compare: {name} batch {batch} (PyTorch)", file=sys.stderr,
                  flush=True)
            try:
                tfaot = tfaot_bench(cmd, args.min_time, args.target_cpu,
                                    batch, args.threads)
                torch = torch_time(script, name[len("gen-"):], batch,
                                   args.threads, args.min_time)
            except RuntimeError as e:
                print(f"compare: {name}: skipped: {e}", file=sys.stderr)
                continue
            raw.append({"model": name, "batch": batch, "tfaot": tfaot,
                        "torch": torch})
            rows.append(
                f"| {name} | {batch} | {tfaot['median_ms']:.3g} | "
                f"{torch['median_ms']:.3g} ({torch['mode']}) | "
                f"{tfaot['median_ms'] / torch['median_ms']:.2f} |")
    return rows, raw


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument("--target-cpu", default="native")
    parser.add_argument("--json", help="also write every figure here")
    parser.add_argument("--torch", action="store_true",
                        help="also compare the generated models with PyTorch")
    parser.add_argument("--torch-batches", default="1,8")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for tfaot and PyTorch in the --torch "
                             "table; other than 1, the TF.js table gets a "
                             "column of tfaot on that many threads too")
    args = parser.parse_args()
    script = os.path.join(root, "bench", "peers", "tfjs_time.js")
    if not os.path.isdir(os.path.join(root, "bench", "peers", "node_modules")):
        sys.exit("compare: the TF.js peer is not installed: run "
                 "`npm ci --ignore-scripts --prefix bench/peers`")
    tests = comparisons(args.build)
    if not tests:
        sys.exit(f"compare: no e2e.tfjs comparisons in {args.build}; build "
                 "the tests first (scripts/test.sh)")
    rows, raw = [], []
    for name, cmd in tfjs_models(tests, args.only):
        graph = cmd[cmd.index("--graph") + 1]
        feeds, fetches = flag_values(cmd, "--feed"), flag_values(cmd, "--fetch")
        print(f"compare: {name}", file=sys.stderr, flush=True)
        try:
            tfaot = tfaot_bench(cmd, args.min_time, args.target_cpu)
            threaded = (tfaot_bench(cmd, args.min_time, args.target_cpu,
                                    threads=args.threads)
                        if args.threads != 1 else None)
            model = tfjs_model(args.build, name, graph)
            wasm = tfjs_time(script, model, feeds, fetches, "wasm",
                             args.min_time, 10)
            # The JavaScript backend takes seconds per run on the larger
            # models: fewer runs, so that the comparison stays minutes.
            js = tfjs_time(script, model, feeds, fetches, "cpu",
                           args.min_time, 3)
        except RuntimeError as e:
            print(f"compare: {name}: skipped: {e}", file=sys.stderr)
            continue
        raw.append({"model": name, "tfaot": tfaot, "tfjs_wasm": wasm,
                    "tfjs_cpu": js})
        row = (f"| {name} | {tfaot['median_ms']:.3g} | ")
        if threaded:
            raw[-1]["tfaot_threads"] = threaded
            row += f"{threaded['median_ms']:.3g} | "
        row += (f"{wasm['median_ms']:.3g} | {js['median_ms']:.3g} | "
                f"{tfaot['median_ms'] / wasm['median_ms']:.2f} | ")
        if threaded:
            row += f"{threaded['median_ms'] / wasm['median_ms']:.2f} | "
        row += f"{tfaot['median_ms'] / js['median_ms']:.2f} |"
        rows.append(row)
    n = args.threads
    print(f"Median ms per Run() at batch 1, one thread"
          f"{f' (and tfaot on {n} threads)' if n != 1 else ''}, measured in "
          f"one run ({datetime.date.today()}, {cpu_name()}, "
          f"{os.cpu_count()} cores; tfaot --target_cpu={args.target_cpu}; "
          f"TF.js 4.22 wasm with SIMD (one thread in Node) and its "
          f"JavaScript cpu backend). Ratio < 1: tfaot is faster.\n")
    if n != 1:
        print(f"| model | tfaot ms | tfaot {n} threads ms | TF.js wasm ms "
              f"| TF.js cpu ms | tfaot / wasm | tfaot {n} threads / wasm "
              f"| tfaot / cpu |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("| model | tfaot ms | TF.js wasm ms | TF.js cpu ms "
              "| tfaot / wasm | tfaot / cpu |")
        print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    torch_rows, torch_raw = [], []
    if args.torch:
        torch_rows, torch_raw = torch_table(args, root, tests)
        print(f"\nMedian ms per Run(), {args.threads} thread(s) each; PyTorch "
              f"{torch_raw[0]['torch']['torch'] if torch_raw else '?'} "
              f"(Debian), the faster of eager and frozen TorchScript. "
              f"Ratio < 1: tfaot is faster.\n")
        print("| model | batch | tfaot ms | PyTorch ms | tfaot / PyTorch |")
        print("|---|---|---|---|---|")
        print("\n".join(torch_rows))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as out:
            json.dump({"date": str(datetime.date.today()), "cpu": cpu_name(),
                       "cores": os.cpu_count(),
                       "tfaot_target_cpu": args.target_cpu,
                       "min_time_s": args.min_time, "models": raw,
                       "threads": args.threads, "torch": torch_raw},
                      out, indent=1)


if __name__ == "__main__":
    main()
