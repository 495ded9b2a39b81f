# SPDX-License-Identifier: Apache-2.0
"""Writes a text GraphDef of 3x3 convolutions for the Winograd tests
(run-winograd.test): x [2, 9, 10, 16] (9 and 10 are not multiples of the
4x4 output blocks) ->
  r1   = Relu(BiasAdd(Conv2D(x, w1 16->32, SAME), b1))
  valid = Conv2D(r1, w2 32->32, VALID)                [2, 7, 8, 32]
  res  = Relu(Conv2D(r1, w3 32->32, SAME) + r1)       the residual epilogue
  dil  = Conv2D(x, w5 16->32, SAME, dilations 2)      stays direct
  str2 = Conv2D(x, w5, SAME, strides 2)               stays direct
  w1x1 = Conv2D(x, w4 1x1 16->8)                      stays direct
Weights are uniform in [-0.25, 0.25) from a fixed seed.
usage: make_conv3x3.py OUT.pbtxt"""
import random
import sys

rng = random.Random(29)


def shape(dims):
    return " ".join("dim { size: %d }" % d for d in dims)


def const(name, dims):
    count = 1
    for d in dims:
        count *= d
    values = " ".join("float_val: %.6f" % rng.uniform(-0.25, 0.25)
                      for _ in range(count))
    return ('node { name: "%s" op: "Const" attr { key: "dtype" value { type: '
            'DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT '
            'tensor_shape { %s } %s } } } }\n' % (name, shape(dims), values))


def conv(name, x, w, padding="SAME", strides=(1, 1, 1, 1),
         dilations=(1, 1, 1, 1)):
    ints = lambda v: " ".join("i: %d" % i for i in v)
    return ('node { name: "%s" op: "Conv2D" input: "%s" input: "%s" '
            'attr { key: "T" value { type: DT_FLOAT } } '
            'attr { key: "padding" value { s: "%s" } } '
            'attr { key: "strides" value { list { %s } } } '
            'attr { key: "dilations" value { list { %s } } } '
            'attr { key: "data_format" value { s: "NHWC" } } }\n'
            % (name, x, w, padding, ints(strides), ints(dilations)))


def op(name, kind, *inputs):
    ins = " ".join('input: "%s"' % i for i in inputs)
    return ('node { name: "%s" op: "%s" %s attr { key: "T" value { type: '
            'DT_FLOAT } } }\n' % (name, kind, ins))


graph = ('node { name: "x" op: "Placeholder" attr { key: "dtype" value { '
         'type: DT_FLOAT } } attr { key: "shape" value { shape { %s } } } }\n'
         % shape([2, 9, 10, 16]))
graph += const("w1", [3, 3, 16, 32]) + const("b1", [32])
graph += const("w2", [3, 3, 32, 32]) + const("w3", [3, 3, 32, 32])
graph += const("w4", [1, 1, 16, 8]) + const("w5", [3, 3, 16, 32])
graph += conv("c1", "x", "w1") + op("bias1", "BiasAdd", "c1", "b1")
graph += op("r1", "Relu", "bias1")
graph += conv("valid", "r1", "w2", padding="VALID")
graph += conv("c3", "r1", "w3") + op("add3", "AddV2", "c3", "r1")
graph += op("res", "Relu", "add3")
graph += conv("dil", "x", "w5", dilations=(1, 2, 2, 1))
graph += conv("str2", "x", "w5", strides=(1, 2, 2, 1))
graph += conv("w1x1", "x", "w4")
open(sys.argv[1], "w").write(graph)
