# SPDX-License-Identifier: Apache-2.0
import json, sys, statistics, collections, re
def load(files):
    t = collections.defaultdict(list); runs = []
    for f in files:
        ev = json.load(open(f))['traceEvents']
        runs += [e['dur']/1000 for e in ev if e.get('cat') == 'run']
        for e in ev:
            if e.get('ph') == 'X' and e.get('cat') == 'op':
                t[e['name']].append(e['dur']/1000)
    return {k: statistics.median(v) for k, v in t.items()}, statistics.median(runs), len(runs)
def kind(name):
    op = name.split("'")[0].strip(); node = name.split("'")[1] if "'" in name else ''
    if op in ('copy', 'map'): return 'pad copies and fills (copy, map)'
    if 'depthwise' in op: return 'depthwise 3x3'
    if 'expand' in node: return '1x1 expand'
    if 'project' in node: return '1x1 project'
    if node.startswith('Conv_1'): return 'Conv_1 1x1 (320->1280)'
    if node.startswith('Conv1'): return 'Conv1 3x3/2'
    if 'MatMul' in node: return 'predictions MatMul'
    return 'other'
res = []
for arg in sys.argv[1:]:
    tag, files = arg.split('=', 1)
    med, run, n = load(files.split(','))
    g = collections.defaultdict(float)
    for k, v in med.items(): g[kind(k)] += v
    res.append((tag, g, run, n, sum(med.values())))
kinds = sorted(set(k for r in res for k in r[1]), key=lambda k: -res[0][1].get(k, 0))
print('| ops | ' + ' | '.join(f'{r[0]} ms' for r in res) + ' |')
print('|---|' + '---|' * len(res))
for k in kinds:
    print(f'| {k} | ' + ' | '.join(f'{r[1].get(k, 0):.3f}' for r in res) + ' |')
print('| sum of op medians | ' + ' | '.join(f'{r[4]:.2f}' for r in res) + ' |')
print('| profiled Run(), median | ' + ' | '.join(f'{r[2]:.2f} ({r[3]} runs)' for r in res) + ' |')
