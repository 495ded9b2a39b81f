#!/usr/bin/env python3
"""Writes the single-layer GraphDefs (text) of 2026-11-29-devvm-stack-alignment.md:
c14.pbtxt   1x1 convolution 14x14x256 -> 1024 + BiasAdd + Relu (ResNet-50's conv4_blockN_3)
mv1280.pbtxt, mv2048.pbtxt   1 x K times K x 1000 (MobileNetV2's / ResNet-50's classifier)
s3/u3, s4/u4, s5/u5.pbtxt   ResNet-50's stride-2 1x1 shortcut convolutions and the same
                            product on an input already subsampled (stride 1)
Weights are seeded normal values. Usage: make_graphs.py OUT_DIR (needs numpy)."""
import os
import sys

import numpy as np


def content(array):
    return "".join("\\%03o" % b for b in array.astype("<f4").tobytes())


def const(name, array):
    dims = "".join(f" dim {{ size: {d} }}" for d in array.shape)
    return (f'node {{ name: "{name}" op: "Const" attr {{ key: "dtype" value {{ type: DT_FLOAT }} }} '
            f'attr {{ key: "value" value {{ tensor {{ dtype: DT_FLOAT tensor_shape {{{dims} }} '
            f'tensor_content: "{content(array)}" }} }} }} }}\n')


def placeholder(shape):
    dims = "".join(f" dim {{ size: {d} }}" for d in shape)
    return ('node { name: "input" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } '
            f'attr {{ key: "shape" value {{ shape {{{dims} }} }} }} }}\n')


def conv(size, channels, filters, stride, relu):
    rng = np.random.RandomState(0)
    text = placeholder([1, size, size, channels])
    text += const("w", rng.randn(1, 1, channels, filters).astype(np.float32) * 0.05)
    text += const("b", rng.randn(filters).astype(np.float32))
    text += ('node { name: "c" op: "Conv2D" input: "input" input: "w" attr { key: "T" value { type: DT_FLOAT } } '
             f'attr {{ key: "strides" value {{ list {{ i: 1 i: {stride} i: {stride} i: 1 }} }} }} '
             'attr { key: "padding" value { s: "VALID" } } attr { key: "data_format" value { s: "NHWC" } } }\n')
    text += 'node { name: "%s" op: "BiasAdd" input: "c" input: "b" attr { key: "T" value { type: DT_FLOAT } } }\n' % (
        "ba" if relu else "y")
    if relu:
        text += 'node { name: "y" op: "Relu" input: "ba" attr { key: "T" value { type: DT_FLOAT } } }\n'
    return text


def matvec(k, n):
    rng = np.random.RandomState(0)
    return (placeholder([1, k]) + const("w", rng.randn(k, n).astype(np.float32) * 0.01) +
            'node { name: "y" op: "MatMul" input: "input" input: "w" attr { key: "T" value { type: DT_FLOAT } } }\n')


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    graphs = {"c14": conv(14, 256, 1024, 1, True), "mv1280": matvec(1280, 1000),
              "mv2048": matvec(2048, 1000),
              "s3": conv(56, 256, 512, 2, False), "u3": conv(28, 256, 512, 1, False),
              "s4": conv(28, 512, 1024, 2, False), "u4": conv(14, 512, 1024, 1, False),
              "s5": conv(14, 1024, 2048, 2, False), "u5": conv(7, 1024, 2048, 1, False)}
    for name, text in graphs.items():
        with open(os.path.join(out, name + ".pbtxt"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
