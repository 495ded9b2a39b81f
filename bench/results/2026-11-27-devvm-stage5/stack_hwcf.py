# SPDX-License-Identifier: Apache-2.0
# Writes stack8c.pb: 8 fused 3x3 convolutions (7x7x512 -> 7x7x512, bias, relu) whose filters
# are random *constants* (9.4 MB each, 75 MB in all), the layout of ResNet-50's conv5_blockN_2.
import random
from graphdef_bytes import attr, float_const, fused_conv3x3_relu, node, vi
rng = random.Random(0)
g = node("x", "Placeholder", (), attr("dtype", vi(6, 1)))
g += float_const("b", [512], [0.1] * 512)
prev = "x"
for i in range(8):
    w = [rng.uniform(-0.03, 0.03) for _ in range(3 * 3 * 512 * 512)]
    g += float_const(f"w{i}", [3, 3, 512, 512], w)
    g += fused_conv3x3_relu(f"conv{i}", prev, f"w{i}", "b")
    prev = f"conv{i}"
open("stack8c.pb", "wb").write(g)
