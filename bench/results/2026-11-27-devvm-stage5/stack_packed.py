# SPDX-License-Identifier: Apache-2.0
# Writes stack8pc.pb: the 8 layers of stack_hwcf.py, each as 16 fused 3x3 convolutions of 32
# output channels (a contiguous 3x3x512x32 constant filter each: a packed weight panel) and
# a ConcatV2 of their outputs. Emulates channel blocks outside rows with packed weights.
import struct, random, array
def varint(n):
    out=b''
    while True:
        b=n&0x7f; n>>=7
        if n: out+=bytes([b|0x80])
        else: return out+bytes([b])
def ld(num, payload): return varint(num<<3|2)+varint(len(payload))+payload
def vi(num, n): return varint(num<<3|0)+varint(n)
def attr(key, value): return ld(5, ld(1, key.encode())+ld(2, value))
def shape(dims): return b''.join(ld(2, vi(1,d)) for d in dims)
def tensor_float(dims, arr): return vi(1,1)+ld(2,shape(dims))+ld(4, array.array('f', arr).tobytes())
def node(name, op, inputs=(), attrs=b''): return ld(1, ld(1,name.encode())+ld(2,op.encode())+b''.join(ld(3,i.encode()) for i in inputs)+attrs)
rng=random.Random(0)
g=node("x","Placeholder",(),attr("dtype",vi(6,1)))
g+=node("b","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([32],[0.1]*32))))
g+=node("axis","Const",(),attr("dtype",vi(6,3))+attr("value",ld(8,vi(1,3)+ld(2,b"")+ld(7,varint(3)))))
prev="x"
for i in range(8):
    outs=[]
    for j in range(16):
        w=[rng.uniform(-0.03,0.03) for _ in range(3*3*512*32)]
        g+=node(f"w{i}_{j}","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([3,3,512,32],w))))
        a=attr("T",vi(6,1))+attr("num_args",vi(3,1))+attr("strides",ld(1,ld(3,b''.join(varint(1) for _ in range(4)))))
        a+=attr("padding",ld(2,b"SAME"))+attr("fused_ops",ld(1,ld(2,b"BiasAdd")+ld(2,b"Relu")))
        g+=node(f"conv{i}_{j}","_FusedConv2D",(prev,f"w{i}_{j}","b"),a); outs.append(f"conv{i}_{j}")
    g+=node(f"conv{i}cat","ConcatV2",outs+["axis"],attr("T",vi(6,1))+attr("N",vi(3,16))+attr("Tidx",vi(6,3)))
    prev=f"conv{i}cat"
open("stack8pc.pb","wb").write(g)
