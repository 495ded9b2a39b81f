# SPDX-License-Identifier: Apache-2.0
# N bottleneck-like pairs: x(HxWxF) -> 1x1 F->C relu -> 1x1 C->F (+bias) + x, relu. usage: genres.py out H C F N
import sys, random, array
exec(open('gen1x1.py').read().split('out,H,C,F,K,N')[0])
out,H,C,F,N=sys.argv[1],*map(int,sys.argv[2:6])
rng=random.Random(0)
def const(name, dims, vals): return node(name,"Const",(),attr("dtype",vi(6,1))+attr("value",ld(8,tensor_float(dims,vals))))
def conv(name, x, w, b, relu):
    a=attr("T",vi(6,1))+attr("num_args",vi(3,1))+attr("strides",ld(1,ld(3,b''.join(varint(1) for _ in range(4)))))
    a+=attr("padding",ld(2,b"SAME"))+attr("fused_ops",ld(1,ld(2,b"BiasAdd")+(ld(2,b"Relu") if relu else b'')))
    return node(name,"_FusedConv2D",(x,w,b),a)
g=node("x","Placeholder",(),attr("dtype",vi(6,1)))
prev="x"
for i in range(N):
    g+=const(f"wa{i}",[1,1,F,C],[rng.uniform(-0.05,0.05) for _ in range(F*C)])+const(f"ba{i}",[C],[0.1]*C)
    g+=const(f"wb{i}",[1,1,C,F],[rng.uniform(-0.05,0.05) for _ in range(F*C)])+const(f"bb{i}",[F],[0.1]*F)
    g+=conv(f"a{i}",prev,f"wa{i}",f"ba{i}",True)+conv(f"b{i}",f"a{i}",f"wb{i}",f"bb{i}",False)
    g+=node(f"add{i}","AddV2",(f"b{i}",prev),attr("T",vi(6,1)))+node(f"relu{i}","Relu",(f"add{i}",),attr("T",vi(6,1)))
    prev=f"relu{i}"
open(out,"wb").write(g)
