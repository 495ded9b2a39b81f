#!/usr/bin/env python3
#===- scripts/check-layering.py - Includes point one way ------------------===#
# SPDX-License-Identifier: Apache-2.0
#
# Checks every `#include "..."` line of the project's sources against the
# layers of docs/architecture.md ("Layers"):
#
#   tools > compiler > backends (cpu, gpu) > passes > ir
#
# and compiler/ in sub-layers, one per folder, the commands on top:
#
#   compiler (Compile, Bench, Run, Show) > quantize > jit > driver
#     > frontend > proto
#
# A file may include its own layer and the layers below it, never one above.
# The runtime stands apart: it includes only itself, and the other layers
# use only its public headers (runtime/include/tfaot/runtime/*.h), never
# runtime/lib/. test/ may include anything; bench/ sits with tools/ (its
# programs build test models with the proto schema); examples/ are user
# programs and include only the runtime's public headers. The two backends
# do not include each other, except where EXCEPTIONS says why.
#
#   scripts/check-layering.py [ROOT]     (ROOT: the source tree, default ..)
#
# Prints "file:line: includes X (layer L1 -> L2 goes the wrong way)" for
# each wrong-way include and exits 1; exits 0 with a one-line summary when
# there is none. Python 3 standard library only, so CI runs it as is (the
# lit test test/tools/check-layering.test).
#
#===------------------------------------------------------------------------===#
import os
import re
import sys

# Rank of each layer: a file may include layers of lower or equal rank.
# backends/cpu and backends/gpu share a rank but are separate layers.
# "compiler" is the files directly in compiler/ (the commands and
# tfaot::compile); each folder below it is a layer of its own: the quantizer
# runs the driver's builds and their objects in process (jit), the jit loads
# the driver's CompiledArtifacts, the driver builds on the frontend's
# loaders and importers, which read the protobuf schema (proto).
RANKS = {
    "tools": 10,
    "bench": 10,
    "compiler": 9,
    "compiler/quantize": 8,
    "compiler/jit": 7,
    "compiler/driver": 6,
    "compiler/frontend": 5,
    "compiler/proto": 4,
    "backends/cpu": 3,
    "backends/gpu": 3,
    "passes": 2,
    "ir": 1,
}

# Layers anything may include: the runtime's public headers are the ABI
# shared by generated code, the runtime and tfaot's in-process runner.
OPEN_TO_ALL = {"runtime"}

# What each layer outside the ranks may include besides itself.
ISLANDS = {
    "runtime": {"runtime", "runtime/lib"},  # nothing of the compiler
    "runtime/lib": {"runtime", "runtime/lib"},
    "examples": {"runtime"},                # user programs
}

# Allowed includes across the two backends: (includer's directory, included
# file, why). Nothing else crosses between backends/cpu and backends/gpu.
EXCEPTIONS = [
    ("backends/gpu/", "backends/cpu/Pipeline.h",
     "a CUDA build's host code, and all of a --gpu_emulate build, goes "
     "through the CPU backend's LLVM pipeline (cpu::buildToLLVMPipeline); "
     "TfaotGpuBackend links TfaotCpuBackend for it"),
]

TOP_DIRS = ["tools", "bench", "compiler", "backends", "passes", "ir",
            "runtime", "test", "examples"]
SOURCE_SUFFIXES = (".h", ".hpp", ".inc", ".c", ".cc", ".cpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer of a path relative to the root, or None outside them."""
    parts = path.split("/")
    top = parts[0]
    if top == "backends":
        return "backends/" + parts[1] if len(parts) > 2 else None
    if top == "compiler":
        return "compiler/" + parts[1] if len(parts) > 2 else "compiler"
    if top == "runtime":
        return "runtime/lib" if len(parts) > 1 and parts[1] == "lib" \
            else "runtime"
    return top if top in TOP_DIRS else None


def resolve(root, includer, name):
    """The root-relative path `name` names from `includer`, or None for a
    header outside the project (LLVM, MLIR, gtest, generated models)."""
    candidates = [os.path.join(os.path.dirname(includer), name), name,
                  os.path.join("runtime/include", name)]
    for candidate in candidates:
        if os.path.isfile(os.path.join(root, candidate)):
            return os.path.normpath(candidate)
    # Generated headers (Passes.h.inc, graph.pb.h) live in the build dir
    # under the path of the directory that generates them.
    if layer_of(name) is not None and name.split("/")[0] != "test":
        return os.path.normpath(name)
    return None


def allowed(source_layer, target_layer, includer, target):
    if source_layer == "test" or source_layer == target_layer:
        return True
    if target_layer in OPEN_TO_ALL:
        return True
    if source_layer in ISLANDS or target_layer not in RANKS:
        return target_layer in ISLANDS.get(source_layer, ())
    if source_layer.startswith("backends/") and \
            target_layer.startswith("backends/"):
        return any(includer.startswith(prefix) and target == header
                   for prefix, header, _ in EXCEPTIONS)
    return RANKS[target_layer] <= RANKS[source_layer]


def sources(root):
    for top in TOP_DIRS:
        for directory, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(directory, name), root)


def main(argv):
    root = argv[1] if len(argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    violations = files = includes = 0
    for path in sources(root):
        files += 1
        source_layer = layer_of(path)
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = resolve(root, path, match.group(1))
                if target is None:
                    continue
                includes += 1
                target_layer = layer_of(target)
                if target_layer is None or allowed(source_layer, target_layer,
                                                   path, target):
                    continue
                violations += 1
                print(f"{path}:{number}: includes {match.group(1)} (layer "
                      f"{source_layer} -> {target_layer} goes the wrong way)")
    if violations:
        print(f"{violations} wrong-way include(s); the layers are in "
              "docs/architecture.md", file=sys.stderr)
        return 1
    print(f"layering ok: {includes} project includes in {files} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
