#!/bin/bash
# Whole models again, alternating, 2 more pairs.
cd /tmp/pk
main=/work/main/build/bin/tfaot; new=/tmp/pk/tfaot-D
echo "fma_peak $(/tmp/pack-fma_peak) GFLOP/s; $(uptime)"
for r in 4 5; do
  for cfg in "1 1" "1 2" "8 1"; do set -- $cfg; batch=$1; threads=$2
    for m in resnet50 mobilenet_v2; do for b in main new; do
      exe=$main; [[ $b == new ]] && exe=$new
      line=$($exe bench --graph /tmp/w/$m.pb --feed input:$batch,224,224,3 --fetch probs --target_cpu native --threads $threads --min_time 3 2>&1 | grep -E "^ +$batch ")
      echo "whole $m b$batch t$threads $b r$r: $line"
    done; done
  done
done
echo "fma_peak $(/tmp/pack-fma_peak) GFLOP/s; $(uptime)"
