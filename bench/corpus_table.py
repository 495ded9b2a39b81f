#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the corpus coverage table: for every TF.js model of
../shared/corpus/tfjs and every frozen GraphDef the TF.js comparisons cover,
its node count, whether tfaot compiles it (and how long that takes, and how
big the object is), and whether the compiled code matches TensorFlow.js
(worst absolute error over all outputs).

    bench/corpus_table.py [--build build] [--corpus ../shared/corpus]

Needs a build with the e2e.tfjs tests (scripts/test.sh makes one). The
models and their compile flags are not listed here: they are read from the
build itself (the tfaot command ninja runs for each comparison, via
`ninja -t commands`), so the table always describes what the tests test.
Corpus models without a comparison (tfaot cannot compile them yet) are
compiled with their signature's defaults, and the table gives the first
error as the reason.

Output: a Markdown table on stdout; progress on stderr. Exit 0.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def node_count(tfaot, graph):
    """'N' or 'N+M' (function library nodes) from `tfaot ops`."""
    out = run([tfaot, "ops", "--graph", graph]).stdout
    m = re.search(r": (\d+) nodes(?: \(\+(\d+) in)?", out)
    if not m:
        return "?"
    return m.group(1) + (f"+{m.group(2)}" if m.group(2) else "")


def compile_timed(cmd):
    """Runs a `tfaot compile` command line into a scratch directory.
    Returns (ok, seconds, object bytes, first error line)."""
    with tempfile.TemporaryDirectory() as tmp:
        args = list(cmd)
        for flag, name in (("--out_header", "m.h"),
                           ("--out_function_object", "m.o")):
            if flag in args:
                args[args.index(flag) + 1] = os.path.join(tmp, name)
            else:
                args += [flag, os.path.join(tmp, name)]
        start = time.monotonic()
        proc = run(args)
        seconds = time.monotonic() - start
        obj = os.path.join(tmp, "m.o")
        size = os.path.getsize(obj) if os.path.exists(obj) else 0
        errors = [l for l in proc.stderr.splitlines() if ": error: " in l]
        first = errors[0].split(": error: ", 1)[1] if errors else ""
        return proc.returncode == 0, seconds, size, first


def oracle(exe):
    """(passed, worst max abs error) from one comparison program."""
    proc = run([exe])
    errs = [float(x) for x in re.findall(r"max abs err ([0-9.eE+-]+|nan|inf)",
                                         proc.stdout)]
    return proc.returncode == 0, (max(errs) if errs else None), proc.stdout


def comparisons(build):
    """name -> (tfaot command as a list, comparison program) for every
    e2e.tfjs comparison in the build."""
    tfjs_dir = os.path.join(build, "test", "e2e", "tfjs")
    models = os.path.join(tfjs_dir, "models")
    found = {}
    if not os.path.isdir(models):
        return found
    for entry in sorted(os.listdir(models)):
        if not entry.endswith(".o"):
            continue
        name = entry[:-2]
        target = os.path.relpath(os.path.join(models, entry), build)
        cmds = run(["ninja", "-C", build, "-t", "commands", target]).stdout
        line = [l for l in cmds.splitlines() if " compile --graph " in l]
        if not line:
            continue
        # "cd DIR && /path/tfaot compile ..."
        command = line[-1].split(" && ", 1)[-1]
        exe = os.path.join(tfjs_dir, "tfaot_tfjs_compare_" + name)
        found[name] = (shlex.split(command), exe)
    return found


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--corpus",
                        default=os.path.join(root, "..", "shared", "corpus"))
    args = parser.parse_args()
    tfaot = os.path.join(args.build, "bin", "tfaot")
    if not os.path.exists(tfaot):
        sys.exit(f"corpus_table: no {tfaot}; build first (scripts/test.sh)")

    tests = comparisons(args.build)
    rows = []
    tfjs_dir = os.path.join(args.corpus, "tfjs")
    graphs_by_test = {}
    for name, (cmd, _) in tests.items():
        graphs_by_test[name] = cmd[cmd.index("--graph") + 1]
    # Corpus TF.js models first (all of them), then the frozen GraphDefs.
    order = []
    for entry in sorted(os.listdir(tfjs_dir)):
        if entry.endswith(".json"):
            order.append(("tfjs", entry[:-5], os.path.join(tfjs_dir, entry)))
    for name in sorted(tests):
        graph = graphs_by_test[name]
        if "/frozen/" in graph:
            order.append(("frozen", name, graph))

    for kind, name, graph in order:
        print(f"corpus_table: {name}", file=sys.stderr)
        nodes = node_count(tfaot, graph)
        shown = os.path.relpath(graph, args.corpus)
        if name in tests:
            cmd, exe = tests[name]
            ok, secs, size, error = compile_timed(cmd)
            passed, worst, _ = oracle(exe) if ok else (False, None, "")
            match = ("yes" if passed else "NO") + (
                f" ({worst:.1e})" if worst is not None else "")
            rows.append((name, shown, nodes, "yes" if ok else "NO: " + error,
                         match, f"{secs:.2f} s" if ok else "",
                         f"{size / 1e6:.2f} MB" if ok else ""))
        else:
            cmd = [tfaot, "compile", "--graph", graph, "--cpp_class", "M"]
            ok, secs, size, error = compile_timed(cmd)
            rows.append((name, shown, nodes,
                         "yes" if ok else "no: " + error,
                         "not tested", f"{secs:.2f} s" if ok else "",
                         f"{size / 1e6:.2f} MB" if ok else ""))

    print("| model | file | nodes | compiles | matches TF.js (max abs err) "
          "| compile time | object |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
