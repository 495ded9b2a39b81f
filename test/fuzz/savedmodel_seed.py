#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Packs a single-shard SavedModel directory into the savedmodel fuzzer's
input format: saved_model.pb and variables/variables.index, each after its
length (4 bytes, little endian), then variables.data-00000-of-00001.

Usage: savedmodel_seed.py DIR OUT
"""
import os
import struct
import sys


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def main():
    model, out = sys.argv[1], sys.argv[2]
    variables = os.path.join(model, "variables")
    parts = [read(os.path.join(model, "saved_model.pb")),
             read(os.path.join(variables, "variables.index"))]
    data = read(os.path.join(variables, "variables.data-00000-of-00001"))
    with open(out, "wb") as f:
        for part in parts:
            f.write(struct.pack("<I", len(part)) + part)
        f.write(data)


if __name__ == "__main__":
    main()
