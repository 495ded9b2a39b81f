# SPDX-License-Identifier: Apache-2.0
import json, sys, statistics, re, collections
# per layer (convI or convI_J summed over J) time per run, median over runs, pooled over files
tot=collections.defaultdict(list)
for f in sys.argv[2:]:
    d=json.load(open(f))
    runs=sorted([(e['ts'],e['ts']+e['dur']) for e in d['traceEvents'] if e.get('cat')=='run'])
    acc=collections.defaultdict(float)
    for e in d['traceEvents']:
        if e.get('ph')=='X' and e.get('cat')!='run' and 'conv_2d' in e['name']:
            m=re.search(r"'conv(\d+)", e['name'])
            r=next(i for i,(a,b) in enumerate(runs) if a<=e['ts']<=b)
            acc[(r,m.group(1))]+=e['dur']/1000
    for (r,l),v in acc.items(): tot[l].append(v)
flop=float(sys.argv[1]); meds=[]
for l in sorted(tot):
    v=tot[l]; meds.append(statistics.median(v))
ms=statistics.median(meds)
allv=[x for v in tot.values() for x in v]
print(f"n={len(allv)} layer-runs; median {statistics.median(allv):.3f} ms ({flop/statistics.median(allv)/1e6:.1f} GFLOP/s), p10 {sorted(allv)[len(allv)//10]:.3f} ms, min {min(allv):.3f}")
