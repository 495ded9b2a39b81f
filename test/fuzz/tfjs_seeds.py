#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cuts TF.js graph models down to small tfjs-fuzzer seeds.

usage: tfjs_seeds.py OUT_DIR MAX_BYTES MODEL.json...

The corpus models are 0.2-8 MB with their weights; fed whole, the fuzzer
runs about a hundred inputs a second and never gets past JSON parsing. Each
seed keeps a prefix of the model's nodes (a node only when all its inputs
are kept), the manifest entries of the kept Const nodes and exactly their
weight bytes, so it still loads and imports, with the model's real ops,
attributes and quantizations. The signature is dropped: the fuzzer then
fetches the graph's sinks. Seed format: JSON, one NUL byte, weight bytes.
"""
import json
import os
import sys

ITEM_BYTES = {"float32": 4, "int32": 4, "bool": 1, "complex64": 8,
              "uint8": 1, "uint16": 2, "float16": 2}


def weight_bytes(spec, data, offset):
    """Size of one weight in the concatenated shards (None: unknown)."""
    count = 1
    for d in spec["shape"]:
        count *= int(d)
    if spec["dtype"] == "string":
        at = offset
        for _ in range(count):
            length = int.from_bytes(data[at:at + 4], "little")
            at += 4 + length
        return at - offset
    dtype = spec.get("quantization", {}).get("dtype", spec["dtype"])
    return count * ITEM_BYTES[dtype] if dtype in ITEM_BYTES else None


def cut(path, max_bytes):
    with open(path) as f:
        model = json.load(f)
    data = b""
    for group in model.get("weightsManifest", []):
        for shard in group["paths"]:
            with open(os.path.join(os.path.dirname(path), shard), "rb") as f:
                data += f.read()
    # Where each weight lives, in manifest order.
    weights, offset = {}, 0
    for group in model.get("weightsManifest", []):
        for spec in group["weights"]:
            size = weight_bytes(spec, data, offset)
            if size is None:
                break
            weights[spec["name"]] = (spec, data[offset:offset + size])
            offset += size
    kept, nodes, manifest, blob = set(), [], [], b""
    budget = max_bytes // 2  # Half for JSON, half for weights, roughly.
    for node in model["modelTopology"]["node"]:
        inputs = [i.lstrip("^").split(":")[0] for i in node.get("input", [])]
        if any(i not in kept for i in inputs):
            continue
        extra = b""
        if node["op"] == "Const" and node["name"] in weights:
            spec, extra = weights[node["name"]]
        if len(json.dumps(nodes)) + len(json.dumps(node)) > budget or \
                len(blob) + len(extra) > budget:
            continue
        kept.add(node["name"])
        nodes.append(node)
        if extra or node["name"] in weights:
            manifest.append(weights[node["name"]][0])
            blob += extra
    seed = {"format": "graph-model",
            "modelTopology": {"node": nodes},
            "weightsManifest": [{"paths": ["w.bin"], "weights": manifest}]}
    return json.dumps(seed, separators=(",", ":")).encode() + b"\0" + blob


def main():
    out, max_bytes = sys.argv[1], int(sys.argv[2])
    for path in sys.argv[3:]:
        try:
            seed = cut(path, max_bytes)
        except (OSError, ValueError, KeyError) as e:
            print(f"tfjs_seeds.py: skipping {path}: {e}", file=sys.stderr)
            continue
        name = os.path.splitext(os.path.basename(path))[0] + ".cut"
        with open(os.path.join(out, name), "wb") as f:
            f.write(seed)


if __name__ == "__main__":
    main()
