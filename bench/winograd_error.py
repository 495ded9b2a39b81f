#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Winograd F(4x4,3x3) against direct convolution, model by model.

For each model: compiles it with --conv_algorithm=winograd --emit bufferized
to count the convolutions rewritten, then (if any) runs it with `tfaot run`
on the same random inputs (--seed) with direct and with winograd and prints,
per fetched output, the largest absolute difference relative to the largest
|direct| value (max rel), and the mean absolute difference relative to the
mean |direct| (mean rel).

usage: winograd_error.py TFAOT WORKDIR SEED NAME|GRAPH|FEEDS|FETCHES ...
       (FEEDS, FETCHES: space-separated, as in test/e2e/tfjs/CMakeLists.txt;
       FETCHES may be empty for the signature outputs)
"""
import ast
import os
import struct
import subprocess
import sys


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    header_len = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + header_len].decode("latin1"))
    body = data[10 + header_len:]
    kinds = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q"}
    code = kinds.get(header["descr"])
    if code is None:
        return None
    return struct.unpack("<%d%s" % (len(body) // struct.calcsize(code), code), body)


def run(tfaot, graph, feeds, fetches, seed, algorithm, out):
    args = [tfaot, "run", "--graph", graph, "--seed", str(seed),
            "--conv_algorithm", algorithm, "--output_dir", out]
    args += sum((["--feed", f] for f in feeds), [])
    args += sum((["--fetch", f] for f in fetches), [])
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def main():
    tfaot, work, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print("| model | 3x3 convolutions rewritten | output | max rel | mean rel |")
    print("|---|---|---|---|---|")
    for spec in sys.argv[4:]:
        name, graph, feeds, fetches = spec.split("|")
        feeds, fetches = feeds.split(), fetches.split()
        args = [tfaot, "compile", "--graph", graph, "--conv_algorithm",
                "winograd", "--emit", "bufferized", "-o", "-"]
        args += sum((["--feed", f] for f in feeds), [])
        args += sum((["--fetch", f] for f in fetches), [])
        ir = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        rewritten = ir.count('tfaot.winograd_transform = "input"')
        if not rewritten:
            print("| %s | 0 | | | |" % name, flush=True)
            continue
        dirs = {}
        for algorithm in ("direct", "winograd"):
            dirs[algorithm] = os.path.join(work, name, algorithm)
            run(tfaot, graph, feeds, fetches, seed, algorithm, dirs[algorithm])
        for file in sorted(os.listdir(dirs["direct"])):
            ref = read_npy(os.path.join(dirs["direct"], file))
            got = read_npy(os.path.join(dirs["winograd"], file))
            if not ref:
                continue
            diff = [abs(a - b) for a, b in zip(got, ref)]
            scale = max(abs(v) for v in ref) or 1.0
            mean_ref = sum(abs(v) for v in ref) / len(ref) or 1.0
            print("| %s | %d | %s | %.2e | %.2e |" % (
                name, rewritten, file[:-4], max(diff) / scale,
                sum(diff) / len(diff) / mean_ref), flush=True)


main()
