# SPDX-License-Identifier: Apache-2.0
import re, subprocess, sys, filecmp, os, glob
src = open('/work/wt-cpu/test/e2e/tfjs/CMakeLists.txt').read()
block = src[src.index('set(TFAOT_TFJS_CORPUS_MODELS'):]
block = block[:block.index('\n)')]
entries = re.findall(r'^\s*"([^"]+)"', block, re.M)
bins = {'base': '/tmp/cpu3-base-tfaot', 'new': sys.argv[1]}
for e in entries:
    f = e.split('|')
    name, file, feeds, fetches = f[:4]
    extra = f[4] if len(f) > 4 else ''
    if extra.startswith('RTOL') or extra == 'SENSITIVITY': extra = ''
    extra = extra.replace('COMPILE_ARGS ', '')
    args = ['--graph', '/work/shared/corpus/tfjs/' + file, '--target_cpu', 'native', '--seed', '5']
    for fd in feeds.split(): args += ['--feed', fd]
    for ft in fetches.split(): args += ['--fetch', ft]
    args += extra.split()
    ok = True
    for tag, b in bins.items():
        out = f'/tmp/cpu3/corpus/{name}-{tag}'
        subprocess.run(['rm', '-rf', out])
        r = subprocess.run([b, 'run'] + args + ['--output_dir', out], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            print(name, tag, 'FAILED', r.stderr[-300:]); ok = False
    files = sorted(os.path.basename(p) for p in glob.glob(f'/tmp/cpu3/corpus/{name}-base/*.npy'))
    same = [filecmp.cmp(f'/tmp/cpu3/corpus/{name}-base/{x}', f'/tmp/cpu3/corpus/{name}-new/{x}', shallow=False) for x in files]
    print(name, f'{sum(same)}/{len(files)} outputs byte-identical', flush=True)
