# SPDX-License-Identifier: Apache-2.0
# Writes stack8c.pb: 8 fused 3x3 convolutions (7x7x512 -> 7x7x512, bias, relu) whose filters
# are random *constants* (9.4 MB each, 75 MB in all), the layout of ResNet-50's conv5_blockN_2.
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
g+=node("b","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([512],[0.1]*512))))
prev="x"
for i in range(8):
    w=[rng.uniform(-0.03,0.03) for _ in range(3*3*512*512)]
    g+=node(f"w{i}","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([3,3,512,512],w))))
    a=attr("T",vi(6,1))+attr("num_args",vi(3,1))+attr("strides",ld(1,ld(3,b''.join(varint(1) for _ in range(4)))))
    a+=attr("padding",ld(2,b"SAME"))+attr("fused_ops",ld(1,ld(2,b"BiasAdd")+ld(2,b"Relu")))
    g+=node(f"conv{i}","_FusedConv2D",(prev,f"w{i}","b"),a)
    prev=f"conv{i}"
open("stack8c.pb","wb").write(g)
