# SPDX-License-Identifier: Apache-2.0
import json, sys, statistics, re, collections
import os
exec(open(os.path.join(os.path.dirname(__file__), 'layers.py')).read().split('wbytes')[0])  # the MAC table
t=collections.defaultdict(list); runs=[]
for f in sys.argv[1:]:
    d=json.load(open(f))
    runs+= [e['dur']/1000 for e in d['traceEvents'] if e.get('cat')=='run']
    for e in d['traceEvents']:
        if e.get('ph')=='X' and e.get('cat')!='run':
            m=re.search(r"conv_2d_nhwc_hwcf.*'([^']+)/Conv2D'", e['name'])
            if m: t[m.group(1)].append(e['dur']/1000)
med={k:statistics.median(v) for k,v in t.items()}
mn={k:min(v) for k,v in t.items()}
print(f"profiled Run() median {statistics.median(runs):.1f} ms over {len(runs)} runs; convs sum of medians {sum(med.values()):.1f} ms")
def grp(k):
    if k=="conv1_conv": return "conv1 7x7/2"
    s=k[4]; kind=k.split('_')[2]
    return f"stage {s} " + {"0":"1x1 projection","1":"1x1 reduce","2":"3x3","3":"1x1 expand"}[kind]
G=collections.defaultdict(lambda:[0,0,0,0])
for k in med:
    g=G[grp(k)]; g[0]+=1; g[1]+=med[k]; g[2]+=2*macs[k]/1e6; g[3]+=mn[k]
print("| layers | count | ms (sum of medians) | MFLOP | GFLOP/s (median) | GFLOP/s (min) |")
print("|---|---|---|---|---|---|")
for k in sorted(G):
    c,ms,mf,mi=G[k]; print(f"| {k} | {c} | {ms:.2f} | {mf:.0f} | {mf/ms:.0f} | {mf/mi:.0f} |")
