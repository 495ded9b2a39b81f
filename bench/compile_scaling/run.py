#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile time and peak memory of `tfaot compile` against graph size.

usage: run.py [--tfaot build/bin/tfaot] [--nodes 1000,10000,100000]
              [--repeats 3] [--timeout 900] [--json out.json]

Generates, for each node count, a text GraphDef of one simple pattern
repeated: x float32[1,64], then blocks of y = Relu(y * c_i + b_i) (two
constants of 64 distinct values and three ops per block, 5 nodes), fetched
at the end. Compiles each to an object `--repeats` times, alternating the
sizes, under /usr/bin/time, and prints the median seconds and peak resident
memory (MiB) per size, with each size's growth over the previous one
relative to the node count's: near 1.0 is linear. A compile that runs past
--timeout seconds is stopped and its size reported as such (and not tried
again, nor any larger size).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

WIDTH = 64


def const(name, values):
    vals = " ".join("float_val: %g" % v for v in values)
    return ('node { name: "%s" op: "Const" attr { key: "dtype" value { type: '
            'DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT '
            'tensor_shape { dim { size: %d } } %s } } } }\n'
            % (name, len(values), vals))


def op(name, kind, inputs):
    ins = " ".join('input: "%s"' % i for i in inputs)
    return ('node { name: "%s" op: "%s" %s attr { key: "T" value { type: '
            'DT_FLOAT } } }\n' % (name, kind, ins))


def graph(nodes):
    """The graph's text and its fetch: 1 placeholder + blocks of 5 nodes."""
    out = ['node { name: "x" op: "Placeholder" attr { key: "dtype" value { '
           'type: DT_FLOAT } } attr { key: "shape" value { shape { dim { '
           'size: 1 } dim { size: %d } } } } }\n' % WIDTH]
    last = "x"
    for i in range((nodes - 1) // 5):
        # Distinct values per block, so no two constants are equal.
        scale = [1 + ((i * WIDTH + j) % 97) / 1000 for j in range(WIDTH)]
        shift = [((i * 31 + j) % 89) / 1000 - 0.04 for j in range(WIDTH)]
        out.append(const("c%d" % i, scale))
        out.append(const("b%d" % i, shift))
        out.append(op("m%d" % i, "Mul", [last, "c%d" % i]))
        out.append(op("a%d" % i, "AddV2", ["m%d" % i, "b%d" % i]))
        out.append(op("r%d" % i, "Relu", ["a%d" % i]))
        last = "r%d" % i
    return "".join(out), last


def measure(tfaot, path, fetch, work, timeout):
    cmd = ["/usr/bin/time", "-f", "%e %M", tfaot, "compile", "--graph", path,
           "--feed", "x", "--fetch", fetch, "--cpp_class", "bench::Chain",
           "--out_header", os.path.join(work, "m.h"),
           "--out_function_object", os.path.join(work, "m.o")]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if run.returncode != 0:
        sys.exit("compile failed:\n" + run.stderr)
    seconds, kib = run.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kib) / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tfaot", default="build/bin/tfaot")
    p.add_argument("--nodes", default="1000,10000,100000")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("--json")
    args = p.parse_args()
    sizes = [int(n) for n in args.nodes.split(",")]
    with tempfile.TemporaryDirectory() as work:
        graphs = {}
        for n in sizes:
            text, fetch = graph(n)
            path = os.path.join(work, "chain%d.pbtxt" % n)
            with open(path, "w") as f:
                f.write(text)
            graphs[n] = (path, fetch)
        samples = {n: [] for n in sizes}
        timed_out = set()
        for _ in range(args.repeats):
            for n in sizes:
                if any(t <= n for t in timed_out):
                    continue
                sample = measure(args.tfaot, *graphs[n], work, args.timeout)
                if sample is None:
                    timed_out.add(n)
                else:
                    samples[n].append(sample)
    rows = []
    for n in sizes:
        if not samples[n]:
            print("%8d  more than %g s (stopped)" % (n, args.timeout))
            continue
        rows.append({"nodes": n,
                     "seconds": statistics.median(s for s, _ in samples[n]),
                     "peak_mib": statistics.median(m for _, m in samples[n]),
                     "runs": len(samples[n])})
    print("%8s %10s %10s %14s %14s" % ("nodes", "seconds", "peak MiB",
                                      "time growth", "memory growth"))
    for i, r in enumerate(rows):
        growth = ("", "")
        if i:
            prev, k = rows[i - 1], r["nodes"] / rows[i - 1]["nodes"]
            growth = ("%.2f" % (r["seconds"] / prev["seconds"] / k),
                      "%.2f" % (r["peak_mib"] / prev["peak_mib"] / k))
        print("%8d %10.2f %10.1f %14s %14s" % (r["nodes"], r["seconds"],
                                              r["peak_mib"], *growth))
    print("(growth: the ratio to the previous size over the node count's "
          "ratio; 1.0 is linear)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"pattern": "Relu(y * c + b) blocks on float32[1,%d]"
                       % WIDTH, "rows": rows, "timeout_seconds": args.timeout,
                       "timed_out_nodes": sorted(timed_out)}, f, indent=2)


if __name__ == "__main__":
    main()
