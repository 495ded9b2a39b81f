#!/bin/bash
# Alternating A/B: main's tfaot against this branch's (D).
cd /tmp/pk
main=/work/main/build/bin/tfaot; new=/tmp/pk/tfaot-D
peak() { echo "fma_peak $(/tmp/pack-fma_peak) GFLOP/s; $(uptime)"; }
peak
# Per-layer profiles, one thread, batch 1.
for r in 1 2 3; do for b in main new; do
  exe=$main; [[ $b == new ]] && exe=$new
  for m in resnet50 mobilenet_v2; do
    $exe bench --graph /tmp/w/$m.pb --feed input:1,224,224,3 --fetch probs --target_cpu native --threads 1 --min_time 3 --profile prof-$m-$b-$r.json > prof-$m-$b-$r.txt 2>&1
    echo "profile $m $b r$r: $(grep -E '^ +1 ' prof-$m-$b-$r.txt | head -1)"
  done
done; done
peak
# Whole models, no profile.
for r in 1 2 3; do
  for cfg in "1 1" "1 2" "8 1"; do set -- $cfg; batch=$1; threads=$2
    for m in resnet50 mobilenet_v2; do for b in main new; do
      exe=$main; [[ $b == new ]] && exe=$new
      line=$($exe bench --graph /tmp/w/$m.pb --feed input:$batch,224,224,3 --fetch probs --target_cpu native --threads $threads --min_time 3 2>&1 | grep -E "^ +$batch ")
      echo "whole $m b$batch t$threads $b r$r: $line"
    done; done
  done
done
peak
