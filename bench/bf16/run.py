#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Times `tfaot bench` fp32, `tfaot bench --precision=bf16` and ONNX Runtime
(fp32, MLAS) on the generated ResNet-50 and MobileNetV2, alternating
(fp32, bf16, ORT, fp32, bf16, ORT, ...), and prints the medians of the
rounds' medians and the ratios. Reuses bench/cpu_peers.py's runners (same
flags: --target_cpu native, --min_time; ORT on the same networks exported
to ONNX).

    /usr/bin/python3 bench/bf16/run.py --ort-modules DIR [--build build]
        [--models resnet50,mobilenet_v2] [--batch 1] [--threads 1]
        [--rounds 3] [--min-time 2] [--work /tmp/tfaot-bf16-bench]
"""
import argparse
import copy
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cpu_peers  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(cpu_peers.ROOT,
                                                        "build"))
    parser.add_argument("--ort-modules", required=True)
    parser.add_argument("--models", default="resnet50,mobilenet_v2")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=2.0)
    parser.add_argument("--work", default="/tmp/tfaot-bf16-bench")
    args = parser.parse_args()
    models = args.models.split(",")
    os.makedirs(args.work, exist_ok=True)
    subprocess.run([os.path.join(args.build, "bin", "tfaot_gen_models"),
                    args.work, "--only", ",".join(models)], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, os.path.join(cpu_peers.ROOT, "bench",
                                                 "peers", "onnx_export.py"),
                    args.work, *models], check=True)
    fp32 = copy.copy(args)
    fp32.tfaot_args = ""
    bf16 = copy.copy(args)
    bf16.tfaot_args = "--precision=bf16"
    print(f"CPU: {cpu_peers.cpu_name()}; batch {args.batch}, "
          f"{args.threads} thread(s); medians of {args.rounds} alternating "
          f"rounds (each a `tfaot bench` / ORT median), ms per Run()\n")
    print("| model | tfaot fp32 | tfaot bf16 | ONNX Runtime fp32 | "
          "bf16 / fp32 | bf16 / ORT | rounds (fp32; bf16; ORT) |")
    print("|---|---|---|---|---|---|---|")
    for model in models:
        graph = os.path.join(args.work, model + ".pb")
        times = {"fp32": [], "bf16": [], "ort": []}
        for r in range(args.rounds):
            cpu_peers.log(f"{model} round {r + 1}")
            times["fp32"].append(cpu_peers.tfaot_ms(
                fp32, graph, model, args.batch, args.threads))
            times["bf16"].append(cpu_peers.tfaot_ms(
                bf16, graph, model, args.batch, args.threads))
            times["ort"].append(cpu_peers.ort_ms(args, model, args.batch,
                                                 args.threads))
        m = {k: statistics.median(v) for k, v in times.items()}
        rounds = "; ".join(", ".join(f"{x:.3g}" for x in times[k])
                           for k in ("fp32", "bf16", "ort"))
        print(f"| {model} | {m['fp32']:.3g} | {m['bf16']:.3g} | "
              f"{m['ort']:.3g} | {m['bf16'] / m['fp32']:.2f} | "
              f"{m['bf16'] / m['ort']:.2f} | {rounds} |", flush=True)


if __name__ == "__main__":
    main()
