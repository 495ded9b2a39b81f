#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the two weight shards of tfjs-mlp.json into the directory argv[1].

The bytes are those the TF.js converter writes: little-endian, weights
concatenated in manifest order, split into shards at an arbitrary byte
(here in the middle of the float16 weight w2).
"""
import os
import struct
import sys

data = b"".join([
    # w1: float32 [2,3]
    struct.pack("<6f", 1.0, -2.0, 0.5, 0.25, -3.0, -1.0),
    # b1: uint8, value = q * 0.5 - 1 -> [-1, 0.5, 126.5]
    bytes([0, 3, 255]),
    # w2: float16 [3,2]: 1, -0.5, 65504 (largest half), 2^-24 (smallest
    # subnormal), 0.333251953125 (nearest half to 1/3), -2
    struct.pack("<6H", 0x3C00, 0xB800, 0x7BFF, 0x0001, 0x3555, 0xC000),
    # b2: uint16, value = q * 0.25 + 0.5 -> [1, 250.5]
    struct.pack("<2H", 2, 1000),
    # shape: int32 [2]
    struct.pack("<2i", -1, 2),
])
split = 24 + 3 + 5  # 5 bytes into w2
with open(os.path.join(sys.argv[1], "tfjs-mlp-shard1of2.bin"), "wb") as f:
    f.write(data[:split])
with open(os.path.join(sys.argv[1], "tfjs-mlp-shard2of2.bin"), "wb") as f:
    f.write(data[split:])
