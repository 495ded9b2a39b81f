#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tables of one GPU-server run of scripts/gpu-server-checks.sh.

    python3 bench/server_table.py RUN_DIR... --title "..." [--json OUT.json]

Reads what the steps wrote into each RUN_DIR (a device call's $OUT):
gpu_bench.jsonl (tfaot --target=cuda), cpu_bench.json (tfaot bench),
anchors.json (XLA through JAX, ../shared/bench/peers_gpu_server.py) and
peers.jsonl (bench/peers/server_peers.py: ONNX Runtime, PyTorch,
torch.compile). Later directories win where two measured the same thing.
Prints markdown: the GPU table (tfaot against XLA and torch.compile, fp32
and TF32) and the CPU table (tfaot against ONNX Runtime, XLA and PyTorch on
all cores), with ratios (< 1: tfaot is faster). --json writes every row.
"""
import argparse
import json
import os


def read_json_objects(path):
    """Every JSON value in the file (one per line, or concatenated)."""
    if not os.path.exists(path):
        return []
    text, decoder, values, i = open(path).read(), json.JSONDecoder(), [], 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            break
        value, i = decoder.raw_decode(text, i)
        values.extend(value if isinstance(value, list) else [value])
    return values


def collect(dirs):
    rows = {}  # (device, model, batch, who) -> ms

    def put(device, model, batch, who, ms):
        rows[(device, model, int(batch), who)] = float(ms)

    for d in dirs:
        for r in read_json_objects(os.path.join(d, "gpu_bench.jsonl")):
            # bench/gpu/run.sh names the --allow_tf32 builds "<model>-tf32"
            # and the runs without CUDA graphs "<model>-nograph".
            model, _, variant = r["model"].partition("-")
            who = f"tfaot {variant}" if variant else "tfaot"
            put("gpu", model, r["batch"], who, r["median_ms"])
            # RunDeviceResident(): no copies in or out, as the peers run.
            if "resident_median_ms" in r:
                put("gpu", model, r["batch"], f"{who} resident".replace(
                    "tfaot tf32 resident", "tfaot resident tf32"),
                    r["resident_median_ms"])
        for r in read_json_objects(os.path.join(d, "cpu_bench.json")):
            model = os.path.basename(r["graph"]).removesuffix(".pb")
            for p in r["points"]:
                put("cpu", model, p["batch"], "tfaot", p["median_ms"])
        for r in read_json_objects(os.path.join(d, "anchors.json")):
            tf32 = "precision=default" in r.get("note", "")
            put(r["dev"], r["model"], r["batch"],
                "xla tf32" if tf32 else "xla", r["ms"])
        for r in read_json_objects(os.path.join(d, "peers.jsonl")):
            if "median_ms" not in r:
                continue
            who = r["peer"]
            if r.get("tf32"):
                who += " tf32"
            put(r["device"], r["model"], r["batch"], who, r["median_ms"])
    return rows


def table(rows, device, peers, ratios):
    """`ratios`: peer names (tfaot / peer) or (who, peer) pairs."""
    ratios = [r if isinstance(r, tuple) else ("tfaot", r) for r in ratios]
    keys = sorted({(m, b) for (d, m, b, _) in rows if d == device})
    head = ["model", "batch", "tfaot ms"] + [f"{p} ms" for p in peers] + \
           [f"{w} / {p}" for w, p in ratios]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for model, batch in keys:
        get = lambda who: rows.get((device, model, batch, who))  # noqa: E731
        ours = get("tfaot")
        cells = [model, str(batch), f"{ours:.3g}" if ours else "-"]
        cells += [f"{get(p):.3g}" if get(p) else "-" for p in peers]
        cells += [f"{get(w) / get(p):.2f}" if get(w) and get(p) else "-"
                  for w, p in ratios]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--title", default="")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = collect(args.dirs)
    if args.title:
        print(args.title + "\n")
    print("GPU: median ms per call, the inputs on the host and the results "
          "back on the host for tfaot (its Run()), on the device for the "
          "peers and for tfaot resident (RunDeviceResident()). fp32 unless "
          "marked tf32 (tfaot: --allow_tf32).\n")
    print(table(rows, "gpu", ["tfaot tf32", "tfaot nograph", "tfaot resident",
                              "tfaot resident tf32", "xla", "xla tf32",
                              "torch-compile", "torch-compile tf32",
                              "torch-eager"],
                ["xla", ("tfaot resident", "xla"),
                 ("tfaot resident tf32", "xla tf32"), "torch-compile"]))
    print("\nCPU: median ms per call on all cores, fp32.\n")
    print(table(rows, "cpu", ["onnxruntime", "xla", "torch"],
                ["onnxruntime", "xla", "torch"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"device": d, "model": m, "batch": b, "who": w,
                        "median_ms": ms}
                       for (d, m, b, w), ms in sorted(rows.items())], f,
                      indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
