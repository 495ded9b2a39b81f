#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tables of one GPU-server run of scripts/gpu-server-checks.sh.

    python3 bench/server_table.py RUN_DIR... --title "..." [--json OUT.json]
        [--by-precision]

Reads what the steps wrote into each RUN_DIR (a device call's $OUT):
gpu_bench.jsonl (tfaot --target=cuda), cpu_bench.json (tfaot bench),
anchors.json (XLA through JAX, ../shared/bench/peers_gpu_server.py),
xla.jsonl (XLA through JAX, bench/peers/xla_peers.py, fp32 to bf16) and
peers.jsonl (bench/peers/server_peers.py: ONNX Runtime, PyTorch,
torch.compile). Later directories win where two measured the same thing,
and xla.jsonl wins over anchors.json in one directory. Prints markdown:
the GPU table (tfaot against XLA and torch.compile, fp32 and TF32) and the
CPU table (tfaot against ONNX Runtime, XLA and PyTorch on all cores), with
ratios (< 1: tfaot is faster). --by-precision prints instead one GPU table
per precision (fp32, tf32, fp16, bf16: those measured), each with tfaot's
logits error against its CPU reference and top-1 agreement. --json writes
every row.
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


PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def collect(dirs):
    """(rows, accuracy): rows (device, model, batch, who) -> median ms, who
    being e.g. "tfaot", "tfaot resident fp16", "xla bf16", "torch-compile
    tf32" (no suffix: fp32); accuracy (model, batch, precision) -> the
    logits' entry of gpu_bench's results, with its line's "ok"."""
    rows, accuracy = {}, {}

    def put(device, model, batch, who, ms):
        rows[(device, model, int(batch), who)] = float(ms)

    for d in dirs:
        for r in read_json_objects(os.path.join(d, "gpu_bench.jsonl")):
            if "median_ms" not in r:
                continue
            # bench/gpu/run.sh names the --allow_tf32 builds "<model>-tf32",
            # the --precision ones "<model>-fp16" and "<model>-bf16", and
            # the runs without CUDA graphs "<model>-nograph".
            model, _, variant = r["model"].partition("-")
            who = f"tfaot {variant}" if variant else "tfaot"
            put("gpu", model, r["batch"], who, r["median_ms"])
            # RunDeviceResident(): no copies in or out, as the peers run.
            if "resident_median_ms" in r:
                resident = f"{who} resident"
                if variant in PRECISIONS:
                    resident = f"tfaot resident {variant}"
                put("gpu", model, r["batch"], resident,
                    r["resident_median_ms"])
            precision = variant or "fp32"
            results = r.get("results") or [{}]
            if precision in PRECISIONS:
                logits = next((x for x in results if x.get("name") == "logits"),
                              results[0])
                accuracy[(model, int(r["batch"]), precision)] = {
                    **logits, "ok": r.get("ok")}
        for r in read_json_objects(os.path.join(d, "cpu_bench.json")):
            model = os.path.basename(r["graph"]).removesuffix(".pb")
            for p in r["points"]:
                put("cpu", model, p["batch"], "tfaot", p["median_ms"])
        for r in read_json_objects(os.path.join(d, "anchors.json")):
            tf32 = "precision=default" in r.get("note", "")
            put(r["dev"], r["model"], r["batch"],
                "xla tf32" if tf32 else "xla", r["ms"])
        for r in read_json_objects(os.path.join(d, "xla.jsonl")):
            if "median_ms" not in r:
                continue
            who = "xla" if r["precision"] == "fp32" else f"xla {r['precision']}"
            put(r["device"], r["model"], r["batch"], who, r["median_ms"])
        for r in read_json_objects(os.path.join(d, "peers.jsonl")):
            if "median_ms" not in r:
                continue
            who = r["peer"]
            precision = r.get("precision", "tf32" if r.get("tf32") else "")
            if precision in ("tf32", "fp16", "bf16"):
                who += f" {precision}"
            put(r["device"], r["model"], r["batch"], who, r["median_ms"])
    return rows, accuracy


def table(rows, device, peers, ratios):
    """`ratios`: peer names (tfaot / peer) or (who, peer) pairs."""
    ratios = [r if isinstance(r, tuple) else ("tfaot", r) for r in ratios]
    shown = {"tfaot", *peers, *(w for w, _ in ratios), *(p for _, p in ratios)}
    keys = sorted({(m, b) for (d, m, b, w) in rows
                   if d == device and w in shown})
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


def precision_table(rows, accuracy, precision):
    """The GPU table of one precision, or None where nothing ran in it."""
    s = "" if precision == "fp32" else f" {precision}"
    who = {"tfaot": f"tfaot{s}", "resident": f"tfaot resident{s}",
           "xla": f"xla{s}", "compile": f"torch-compile{s}",
           "eager": f"torch-eager{s}"}
    keys = sorted({(m, b) for (d, m, b, w) in rows
                   if d == "gpu" and w in who.values()})
    if not keys:
        return None
    head = ["model", "batch", "tfaot ms", "tfaot resident ms", "xla ms",
            "torch-compile ms", "torch-eager ms", "tfaot resident / xla",
            "tfaot resident / torch-compile", "logits max error",
            "logits mean error", "top-1 agree"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for model, batch in keys:
        ms = {k: rows.get(("gpu", model, batch, w)) for k, w in who.items()}
        cells = [model, str(batch)]
        cells += [f"{ms[k]:.3g}" if ms[k] else "-"
                  for k in ("tfaot", "resident", "xla", "compile", "eager")]
        cells += [f"{ms['resident'] / ms[k]:.2f}" if ms["resident"] and ms[k]
                  else "-" for k in ("xla", "compile")]
        a = accuracy.get((model, batch, precision))
        if a and "max_abs_diff" in a:
            relative = a["max_abs_diff"] / max(a.get("max_abs_ref") or 1, 1e-30)
            cells.append(f"{a['max_abs_diff']:.3g} ({100 * relative:.2g}% of "
                         f"{a.get('max_abs_ref', 0):.3g})" +
                         (" FAILED" if a.get("ok") is False else ""))
            mean = a.get("mean_abs_diff")
            cells.append(f"{mean:.3g}" if mean is not None else "-")
            cells.append(f"{a['top1_agree']}/{a['top1_rows']}"
                         if "top1_agree" in a else "-")
        else:
            cells += ["-", "-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def print_tables(rows):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--title", default="")
    parser.add_argument("--json")
    parser.add_argument("--by-precision", action="store_true")
    args = parser.parse_args()
    rows, accuracy = collect(args.dirs)
    if args.title:
        print(args.title + "\n")
    if args.by_precision:
        print("GPU, one table per precision: median ms per call, tfaot's "
              "Run() (inputs from the host, results back to it) and "
              "RunDeviceResident() (on the device, as the peers are timed; "
              "the ratios use it: < 1, tfaot is faster). fp32: no TF32; "
              "tf32: tfaot --allow_tf32; fp16/bf16: tfaot --precision, the "
              "peers' weights and inputs in that type. Errors: tfaot's "
              "logits against its fp32 CPU build (largest, as a share of "
              "the largest logit, and mean), top-1: rows whose largest "
              "logit is the CPU's.")
        for precision in PRECISIONS:
            table = precision_table(rows, accuracy, precision)
            if table:
                print(f"\n### {precision}\n\n{table}")
    else:
        print_tables(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"device": d, "model": m, "batch": b, "who": w,
                        "median_ms": ms}
                       for (d, m, b, w), ms in sorted(rows.items())], f,
                      indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
