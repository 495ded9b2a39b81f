#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Size of each TF.js corpus entry's entry function as tfaot-split-entry
measures it: operations, nested ones included, after bufferization.

usage: corpus_function_sizes.py [TFAOT] (default build/bin/tfaot)

Compiles every entry of test/e2e/tfjs/CMakeLists.txt to the bufferized IR
(`tfaot compile --emit bufferized`, with the entry's compile flags) and
counts the operations of its public function, one per line that starts
with an op (results, then dialect.op): what the cut's bound
(--max_function_ops, passes/SplitEntry.h) is compared with. Prints one
line per entry and the largest.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_same_bytes  # noqa: E402  (the corpus entries and their flags)

# An op's line: its results, then dialect.op (the func dialect's call and
# return print without their prefix inside a function).
OP = re.compile(r'^\s*(%[^=]+= )?("?[a-z_0-9]+\.[a-z_0-9.]+"?|call|return)'
                r'([ ({<]|$)')


def function_ops(ir):
    """Ops in the public func.func of `ir` (its own line excluded)."""
    count, inside = 0, False
    for line in ir.splitlines():
        if line.startswith("  func.func @"):
            inside = True
            continue
        if inside and line.startswith("  }"):
            inside = False
        if inside and OP.match(line):
            count += 1
    return count


def main():
    tfaot = sys.argv[1] if len(sys.argv) > 1 else "build/bin/tfaot"
    largest = (0, "")
    for entry in corpus_same_bytes.entries():
        name, args = corpus_same_bytes.run_args(entry)
        # run's flags, less the ones compile does not take.
        args = [a for a in args if a not in ("--seed", "5")]
        done = subprocess.run([tfaot, "compile", *args, "--emit",
                               "bufferized", "-o", "-"],
                              capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            print(name, "FAILED", done.stderr[-300:])
            continue
        n = function_ops(done.stdout)
        largest = max(largest, (n, name))
        print("%-40s %6d" % (name, n), flush=True)
    print("largest: %s, %d operations" % (largest[1], largest[0]))


if __name__ == "__main__":
    main()
