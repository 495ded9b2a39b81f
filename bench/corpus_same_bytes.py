# SPDX-License-Identifier: Apache-2.0
"""Runs every TF.js corpus entry of the e2e tests with two tfaot binaries and
says, per entry, how many of its outputs are byte-identical: the check that
a code-generation change leaves the numbers alone.

usage: corpus_same_bytes.py BASE_TFAOT NEW_TFAOT WORK_DIR
The entries (model, feeds, fetches, compile flags) are read from
test/e2e/tfjs/CMakeLists.txt's TFAOT_TFJS_CORPUS_MODELS, the corpus from
../shared/corpus beside the repository (or $TFAOT_CORPUS_DIR); each binary
runs `tfaot run --seed 5 --target_cpu native` into WORK_DIR/<entry>-base and
-new.
"""
import filecmp
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("TFAOT_CORPUS_DIR",
                        os.path.join(os.path.dirname(ROOT), "shared", "corpus"))


def entries():
    src = open(os.path.join(ROOT, "test", "e2e", "tfjs", "CMakeLists.txt")).read()
    block = src[src.index("set(TFAOT_TFJS_CORPUS_MODELS"):]
    block = block[:block.index("\n)")]
    return re.findall(r'^\s*"([^"]+)"', block, re.M)


def run_args(entry):
    fields = entry.split("|")
    name, file, feeds, fetches = fields[:4]
    extra = fields[4] if len(fields) > 4 else ""
    # Only COMPILE_ARGS are tfaot's; the other options (RTOL, INPUT_RANGE,
    # NO_CUDA, SENSITIVITY) are the comparison's.
    extra = extra.split("COMPILE_ARGS ")[1] if "COMPILE_ARGS " in extra else ""
    args = ["--graph", os.path.join(CORPUS, "tfjs", file), "--target_cpu",
            "native", "--seed", "5"]
    args += [a for fd in feeds.split() for a in ("--feed", fd)]
    args += [a for ft in fetches.split() for a in ("--fetch", ft)]
    return name, args + extra.split()


def main(base, new, work):
    for entry in entries():
        name, args = run_args(entry)
        for tag, binary in (("base", base), ("new", new)):
            out = os.path.join(work, f"{name}-{tag}")
            subprocess.run(["rm", "-rf", out])
            done = subprocess.run([binary, "run", *args, "--output_dir", out],
                                  capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                print(name, tag, "FAILED", done.stderr[-300:])
        outputs = sorted(os.path.basename(p) for p in
                         glob.glob(os.path.join(work, f"{name}-base", "*.npy")))
        same = sum(filecmp.cmp(os.path.join(work, f"{name}-base", x),
                               os.path.join(work, f"{name}-new", x),
                               shallow=False) for x in outputs)
        print(name, f"{same}/{len(outputs)} outputs byte-identical", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
