# SPDX-License-Identifier: Apache-2.0
"""A small writer of GraphDef text (pbtxt) for the RNN test graphs.

Graph.node(name, op, inputs, attrs) appends a NodeDef; attribute values are
written by their Python type: a DType for 'type', Shape for 'shape', bool,
int, float, bytes/str for 's', Tensor for 'tensor', a list of DTypes for
'list { type }'. const() writes a Const from a NumPy array (float32 values
with 9 significant digits, which round-trip exactly).
"""
import numpy as np


class DType(str):
    pass


FLOAT, INT32, INT64, BOOL, RESOURCE, STRING = (
    DType("DT_FLOAT"), DType("DT_INT32"), DType("DT_INT64"), DType("DT_BOOL"),
    DType("DT_RESOURCE"), DType("DT_STRING"))


class StringTensor(str):
    """A scalar DT_STRING tensor."""


class Shape(tuple):
    """A TensorShapeProto: dims (-1 unknown), or None for an unknown rank."""


def shape_text(dims):
    if dims is None:
        return "shape { unknown_rank: true }"
    return "shape { %s}" % "".join("dim { size: %d } " % d for d in dims)


def tensor_text(array):
    array = np.asarray(array)
    if array.dtype == np.float32:
        dtype, field = FLOAT, "float_val"
        values = ["%.9g" % v for v in array.ravel()]
    elif array.dtype == np.int32:
        dtype, field = INT32, "int_val"
        values = [str(int(v)) for v in array.ravel()]
    else:
        raise ValueError("unsupported constant dtype %s" % array.dtype)
    dims = "".join("dim { size: %d } " % d for d in array.shape)
    body = " ".join("%s: %s" % (field, v) for v in values)
    return "tensor { dtype: %s tensor_shape { %s} %s }" % (dtype, dims, body)


def value_text(value):
    if isinstance(value, DType):
        return "type: %s" % value
    if isinstance(value, Shape):
        return shape_text(value)
    if isinstance(value, StringTensor):
        return ('tensor { dtype: DT_STRING tensor_shape { } string_val: "%s" }'
                % value)
    if isinstance(value, np.ndarray):
        return tensor_text(value)
    if isinstance(value, bool):
        return "b: %s" % ("true" if value else "false")
    if isinstance(value, int):
        return "i: %d" % value
    if isinstance(value, float):
        return "f: %.9g" % value
    if isinstance(value, str):
        return 's: "%s"' % value
    if isinstance(value, list) and all(isinstance(v, DType) for v in value):
        return "list { %s }" % " ".join("type: %s" % v for v in value)
    raise ValueError("unsupported attribute value %r" % (value,))


class Graph:
    def __init__(self, comment):
        self.lines = ["# " + line for line in comment.strip().split("\n")]
        self.names = set()

    def node(self, name, op, inputs=(), **attrs):
        assert name not in self.names, name
        self.names.add(name)
        self.lines.append("node {")
        self.lines.append('  name: "%s"' % name)
        self.lines.append('  op: "%s"' % op)
        for i in inputs:
            self.lines.append('  input: "%s"' % i)
        for key, value in attrs.items():
            self.lines.append('  attr { key: "%s" value { %s } }' %
                              (key, value_text(value)))
        self.lines.append("}")
        return name

    def const(self, name, value, inputs=()):
        value = np.asarray(value)
        dtype = FLOAT if value.dtype == np.float32 else INT32
        return self.node(name, "Const", inputs, dtype=dtype, value=value)

    def string_const(self, name, text):
        return self.node(name, "Const", dtype=STRING, value=StringTensor(text))

    def i32(self, name, value, inputs=()):
        return self.const(name, np.array(value, dtype=np.int32), inputs)

    def f32(self, name, value, inputs=()):
        return self.const(name, np.array(value, dtype=np.float32), inputs)

    def text(self):
        return "\n".join(self.lines) + "\n"
