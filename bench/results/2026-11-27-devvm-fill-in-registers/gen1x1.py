# SPDX-License-Identifier: Apache-2.0
# one fused 1x1 (or kxk) conv: HxWxC -> F, bias, relu; usage gen1x1.py out H C F K
import sys, random, array
sys.path.insert(0,'.')
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
out,H,C,F,K,N=sys.argv[1],*map(int,sys.argv[2:7])
rng=random.Random(0)
g=node("x","Placeholder",(),attr("dtype",vi(6,1)))
g+=node("b","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([F],[0.1]*F))))
prev="x"
for i in range(N):
    cin = C if i%2==0 else F
    cout = F if i%2==0 else C
    g+=node(f"b{i}","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([cout],[0.1]*cout))))
    w=[rng.uniform(-0.05,0.05) for _ in range(K*K*cin*cout)]
    g+=node(f"w{i}","Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float([K,K,cin,cout],w))))
    a=attr("T",vi(6,1))+attr("num_args",vi(3,1))+attr("strides",ld(1,ld(3,b''.join(varint(1) for _ in range(4)))))
    a+=attr("padding",ld(2,b"SAME"))+attr("fused_ops",ld(1,ld(2,b"BiasAdd")+ld(2,b"Relu")))
    g+=node(f"conv{i}","_FusedConv2D",(prev,f"w{i}",f"b{i}"),a)
    prev=f"conv{i}"
open(out,"wb").write(g)
