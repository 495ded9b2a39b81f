# SPDX-License-Identifier: Apache-2.0
# Writes stack8pc.pb: the 8 layers of stack_hwcf.py, each as 16 fused 3x3 convolutions of 32
# output channels (a contiguous 3x3x512x32 constant filter each: a packed weight panel) and
# a ConcatV2 of their outputs. Emulates channel blocks outside rows with packed weights.
import random
from graphdef_bytes import attr, float_const, fused_conv3x3_relu, ld, node, varint, vi
rng = random.Random(0)
g = node("x", "Placeholder", (), attr("dtype", vi(6, 1)))
g += float_const("b", [32], [0.1] * 32)
g += node("axis", "Const", (), attr("dtype", vi(6, 3)) + attr("value", ld(8, vi(1, 3) + ld(2, b"") + ld(7, varint(3)))))
prev = "x"
for i in range(8):
    outs = []
    for j in range(16):
        w = [rng.uniform(-0.03, 0.03) for _ in range(3 * 3 * 512 * 32)]
        g += float_const(f"w{i}_{j}", [3, 3, 512, 32], w)
        g += fused_conv3x3_relu(f"conv{i}_{j}", prev, f"w{i}_{j}", "b")
        outs.append(f"conv{i}_{j}")
    g += node(f"conv{i}cat", "ConcatV2", outs + ["axis"], attr("T", vi(6, 1)) + attr("N", vi(3, 16)) + attr("Tidx", vi(6, 3)))
    prev = f"conv{i}cat"
open("stack8pc.pb", "wb").write(g)
