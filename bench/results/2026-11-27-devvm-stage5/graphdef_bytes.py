# SPDX-License-Identifier: Apache-2.0
# The GraphDef wire encoding the stack_*.py scripts write by hand (no protobuf module needed):
# varints, length-delimited fields, and the NodeDef/AttrValue/TensorProto pieces they use.
import array


def varint(n):
    out = b''
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def ld(num, payload): return varint(num << 3 | 2) + varint(len(payload)) + payload
def vi(num, n): return varint(num << 3 | 0) + varint(n)
def attr(key, value): return ld(5, ld(1, key.encode()) + ld(2, value))
def shape(dims): return b''.join(ld(2, vi(1, d)) for d in dims)
def tensor_float(dims, arr): return vi(1, 1) + ld(2, shape(dims)) + ld(4, array.array('f', arr).tobytes())


def node(name, op, inputs=(), attrs=b''):
    return ld(1, ld(1, name.encode()) + ld(2, op.encode()) + b''.join(ld(3, i.encode()) for i in inputs) + attrs)


def float_const(name, dims, values):
    return node(name, "Const", (), attr("dtype", vi(6, 1)) + attr("value", ld(8, tensor_float(dims, values))))


def fused_conv3x3_relu(name, x, w, b):
    """_FusedConv2D, stride 1, SAME, with BiasAdd and Relu fused."""
    a = attr("T", vi(6, 1)) + attr("num_args", vi(3, 1))
    a += attr("strides", ld(1, ld(3, b''.join(varint(1) for _ in range(4)))))
    a += attr("padding", ld(2, b"SAME")) + attr("fused_ops", ld(1, ld(2, b"BiasAdd") + ld(2, b"Relu")))
    return node(name, "_FusedConv2D", (x, w, b), a)
