#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Feeds corpus models one NaN, one +inf and one -inf and compares tfaot's
outputs with the TF.js oracle's, NaN against NaN, infinity against infinity
and numbers within a tolerance: the check that non-finite inputs flow
through generated code as TF.js computes them (docs/reliability.md).

usage: nonfinite_vs_tfjs.py [--tfaot build/bin/tfaot] [--work DIR]
                            [MODEL ...]   (default: the four below)

Each model's float32 input is uniform [0,1) (Python's random, seed 5) with
NaN, +inf and -inf at flat positions 7, n/2 and n-3. Needs node and the
installed oracle (scripts/setup-tfjs-oracle.sh). Prints one line per
model (the count of NaN outputs on each side, the largest difference of the
finite ones) and exits 1 if any output disagrees.
"""
import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("TFAOT_CORPUS_DIR",
                        os.path.join(os.path.dirname(ROOT), "shared", "corpus"))
# name: (feed, shape, fetch), as test/e2e/tfjs/CMakeLists.txt lists them.
MODELS = {
    "emotion": ("input_1", (1, 64, 64, 1), "Identity"),
    "liveness": ("conv2d_1_input", (1, 32, 32, 3), "Identity"),
    "iris": ("input_1", (1, 64, 64, 3), "Identity"),
    "antispoof": ("conv2d_input", (1, 128, 128, 3), "Identity"),
}


def nonfinite_input(shape):
    """The input's float32 values, C order."""
    rng = random.Random(5)
    x = [rng.random() for _ in range(math.prod(shape))]
    x[7], x[len(x) // 2], x[len(x) - 3] = math.nan, math.inf, -math.inf
    return x


def write_npy(path, shape, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        ", ".join(str(d) for d in shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        out.write(header.encode("latin1"))
        out.write(struct.pack("<%df" % len(values), *values))


def read_floats(path, npy):
    blob = open(path, "rb").read()
    if npy:
        blob = blob[10 + int.from_bytes(blob[8:10], "little"):]
    return list(struct.unpack("<%df" % (len(blob) // 4), blob))


def same(a, b):
    """NaN equals NaN, infinities must be equal, numbers close."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-4 + 1e-3 * abs(b)


def compare(name, tfaot, work):
    feed, shape, fetch = MODELS[name]
    model = os.path.join(CORPUS, "tfjs", name + ".json")
    x = nonfinite_input(shape)
    write_npy(os.path.join(work, "x.npy"), shape, x)
    with open(os.path.join(work, "x.bin"), "wb") as out:
        out.write(struct.pack("<%df" % len(x), *x))
    subprocess.run([tfaot, "run", "--graph", model, "--feed", feed,
                    "--fetch", fetch, "--input", feed + "=" +
                    os.path.join(work, "x.npy"), "--output_dir",
                    os.path.join(work, "tfaot")], check=True,
                   capture_output=True)
    with open(os.path.join(work, "in.json"), "w") as f:
        json.dump({"inputs": [{"name": feed, "dtype": "float32",
                               "shape": list(shape), "file": "x.bin"}],
                   "outputs": [fetch]}, f)
    subprocess.run(["node", os.path.join(ROOT, "tools", "tfjs-oracle",
                                         "run.js"), "--model", model,
                    "--inputs", os.path.join(work, "in.json"), "--out",
                    os.path.join(work, "tfjs")], check=True)
    ours = read_floats(os.path.join(work, "tfaot", fetch + ".npy"), True)
    theirs = read_floats(os.path.join(work, "tfjs", fetch + ".bin"), False)
    ok = len(ours) == len(theirs) and all(map(same, ours, theirs))
    print("%s: tfaot %d NaN of %d, TF.js %d NaN; first values tfaot %s, "
          "TF.js %s: %s" % (name, sum(map(math.isnan, ours)), len(ours),
                            sum(map(math.isnan, theirs)),
                            ["%.4g" % v for v in ours[:2]],
                            ["%.4g" % v for v in theirs[:2]],
                            "same" if ok else "DIFFERENT"), flush=True)
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tfaot", default=os.path.join(ROOT, "build", "bin",
                                                   "tfaot"))
    p.add_argument("--work", default=None)
    p.add_argument("models", nargs="*", default=list(MODELS))
    args = p.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="nonfinite-")
    ok = True
    for name in args.models:
        model_work = os.path.join(work, name)
        os.makedirs(model_work, exist_ok=True)
        ok &= compare(name, args.tfaot, model_work)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
