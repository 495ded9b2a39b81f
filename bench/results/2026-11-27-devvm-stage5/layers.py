# SPDX-License-Identifier: Apache-2.0
import json, sys, statistics, re, collections
# MACs of each ResNet-50 (v1.5, generated) convolution at batch 1
macs = {"conv1_conv": 112*112*64*7*7*3}
mids=[64,128,256,512]; blocks=[3,4,6,3]; sp=[56,28,14,7]
cin=64
for s in range(4):
    m=mids[s]; P=sp[s]
    for i in range(blocks[s]):
        pre=f"conv{s+2}_block{i+1}"
        stride = 2 if (i==0 and s>0) else 1
        Pin = P*stride
        if i==0: macs[pre+"_0_conv"]=P*P*cin*4*m
        macs[pre+"_1_conv"]=Pin*Pin*cin*m
        macs[pre+"_2_conv"]=P*P*9*m*m
        macs[pre+"_3_conv"]=P*P*m*4*m
        cin=4*m
wbytes = {}
def layer_w(name):
    pass
d=json.load(open(sys.argv[1]))
t=collections.defaultdict(list)
runs=[e['dur'] for e in d['traceEvents'] if e.get('cat')=='run']
for e in d['traceEvents']:
    if e.get('ph')!='X' or e.get('cat')=='run': continue
    mm=re.search(r"conv_2d_nhwc_hwcf.*'([^']+)/Conv2D'", e["name"])
    if mm: t[mm.group(1)].append(e['dur'])
nruns=len(runs)
print(f"runs {nruns}, median Run() {statistics.median(runs)/1000:.2f} ms")
tot=0; rows=[]
for k,v in t.items():
    # one op per run; median over runs
    med=statistics.median(v)/1000
    mac=macs.get(k,0)
    rows.append((k,med,2*mac/1e6, 2*mac/(med*1e-3)/1e9 if mac else 0))
sel = sys.argv[2] if len(sys.argv)>2 else ''
for k,med,mf,gf in sorted(rows, key=lambda r:(r[0])):
    if re.search(sel,k): print(f"{k:22s} {med:7.3f} ms {mf:7.1f} MFLOP {gf:6.1f} GFLOP/s")
print("all convs: %.2f ms, %.0f MFLOP, %.1f GFLOP/s" % (sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[2] for r in rows)/sum(r[1] for r in rows)))
