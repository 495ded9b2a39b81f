#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""int8 against float32 with tfaot on this machine, in one run.

For each model: `tfaot bench` of the float32 graph and of the same graph
with --quantize=int8 (calibrated on generated samples, uniform in [0, 1)),
at each thread count, both compiled for this CPU (--target_cpu native),
alternately for --rounds rounds; each figure is the median of the rounds'
medians, so that a slow spell of a shared machine hits both builds. Then
`tfaot compile` of both for the object sizes and the quantization report
(int8 vs float error and top-1 agreement on the calibration set). Writes
results.json and results.md into the output directory.

usage: bench/int8/run.py [--build build | --bin DIR] [--out DIR]
                         [--threads 1,2] [--samples 32] [--min_time 5]
                         [--rounds 3] [--skip_sizes] [--float_weights]

--bin names the directory holding tfaot and tfaot_gen_models (the GPU
server's unpacked tarball, scripts/gpu-server-checks.sh); --skip_sizes
leaves out the compiles for the object sizes and the report (which do not
depend on the machine); --float_weights builds the int8 models with
--quantize_float_weights (the float layers' MatMul weights in int8 too).
A corpus model whose file is missing (the corpus
is not on the GPU server) is skipped, saying so.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "tfjs")


def models(generated):
    """(name, graph, feed name, feed shape, fetch) of each model measured."""
    return [
        ("ResNet-50", os.path.join(generated, "resnet50.pb"), "input",
         [1, 224, 224, 3], "logits"),
        ("MobileNetV2", os.path.join(generated, "mobilenet_v2.pb"), "input",
         [1, 224, 224, 3], "logits"),
        ("emotion (TF.js corpus)", os.path.join(CORPUS, "emotion.json"),
         "input_1", [1, 64, 64, 1], "Identity"),
    ]


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), result.stdout,
                                        result.stderr))
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--bin", help="directory of tfaot and "
                        "tfaot_gen_models (default: BUILD/bin)")
    parser.add_argument("--skip_sizes", action="store_true")
    parser.add_argument("--out", required=True)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--min_time", default="5")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--float_weights", action="store_true")
    args = parser.parse_args()
    bin_dir = args.bin or os.path.join(args.build, "bin")
    tfaot = os.path.join(bin_dir, "tfaot")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tfaot-int8-")
    run([os.path.join(bin_dir, "tfaot_gen_models"), work, "--only",
         "resnet50,mobilenet_v2"])
    rows = []
    for name, graph, feed, shape, fetch in models(work):
        if not os.path.exists(graph):
            print("skipped %s: no %s" % (name, graph), flush=True)
            continue
        calibration = os.path.join(work, "%s.npy" % feed)
        run([sys.executable, os.path.join(ROOT, "test", "tools", "Inputs",
                                          "write_npy.py"), calibration,
             str(args.samples)] + [str(d) for d in shape[1:]] + ["--seed", "1"])
        common = ["--graph", graph, "--feed",
                  "%s:%s" % (feed, ",".join(map(str, shape))), "--fetch",
                  fetch, "--target_cpu", "native"]
        quantize = ["--quantize=int8", "--calibration", calibration] + (
            ["--quantize_float_weights"] if args.float_weights else [])
        row = {"model": name, "latency_ms": {}, "rounds_ms": {}}
        for threads in args.threads.split(","):
            for _ in range(args.rounds):
                for kind, extra in (("float32", []), ("int8", quantize)):
                    report = json.loads(run(
                        [tfaot, "bench"] + common + extra +
                        ["--threads", threads, "--min_time", args.min_time,
                         "--json", "--quiet"]))
                    row["rounds_ms"].setdefault(
                        "%s/%s" % (kind, threads), []).append(
                            report["points"][0]["median_ms"])
        for key, medians in row["rounds_ms"].items():
            row["latency_ms"][key] = statistics.median(medians)
        if args.skip_sizes:
            rows.append(row)
            print(json.dumps(row), flush=True)
            continue
        for kind, extra in (("float32", []), ("int8", quantize)):
            obj = os.path.join(work, "%s-%s.o" % (feed, kind))
            report = os.path.join(work, "report.json")
            run([tfaot, "compile"] + common + extra +
                ["--out_function_object", obj, "--quiet"] +
                (["--quantize_report", report] if extra else []))
            row["object_bytes_" + kind] = os.path.getsize(obj)
        quantized = json.load(open(report))
        out = quantized["outputs"][0]
        row.update(layers=len(quantized["layers"]),
                   contractions=quantized["contractions"],
                   samples=quantized["samples"],
                   max_abs_error=out["max_abs_error"],
                   max_abs_float=out["max_abs_float"],
                   top1_agree=out.get("top1_agree"),
                   top1_rows=out.get("top1_rows"))
        rows.append(row)
        print(json.dumps(row), flush=True)
    json.dump(rows, open(os.path.join(args.out, "results.json"), "w"),
              indent=2)
    with open(os.path.join(args.out, "results.md"), "w") as md:
        threads = args.threads.split(",")
        sizes = not args.skip_sizes
        md.write("| model | " + ("int8 layers | " if sizes else "") +
                 " | ".join("fp32 %s thr ms | int8 %s thr ms | speed-up"
                            % (t, t) for t in threads) +
                 (" | object fp32 -> int8 MB | max error (of largest) | "
                  "top-1 agreement" if sizes else "") + " |\n")
        md.write("|---" * (1 + 3 * len(threads) + 4 * sizes) + "|\n")
        for r in rows:
            cells = [r["model"]]
            if sizes:
                cells.append("%d of %d" % (r["layers"], r["contractions"]))
            for t in threads:
                f, q = r["latency_ms"]["float32/" + t], r["latency_ms"]["int8/" + t]
                cells += ["%.2f" % f, "%.2f" % q, "%.2fx" % (f / q)]
            if not sizes:
                md.write("| " + " | ".join(cells) + " |\n")
                continue
            cells.append("%.1f -> %.1f" % (r["object_bytes_float32"] / 1e6,
                                          r["object_bytes_int8"] / 1e6))
            cells.append("%.3g (%.1f%%)" % (r["max_abs_error"], 100 *
                                            r["max_abs_error"] / r["max_abs_float"]))
            cells.append("%s/%s" % (r["top1_agree"], r["top1_rows"])
                         if r["top1_rows"] else "-")
            md.write("| " + " | ".join(cells) + " |\n")
    print(open(os.path.join(args.out, "results.md")).read())


if __name__ == "__main__":
    main()
