#!/bin/bash
cd /tmp/pk
main=/work/main/build/bin/tfaot; new=/tmp/pk/tfaot-D
echo "fma_peak $(/tmp/pack-fma_peak) GFLOP/s; $(uptime)"
for r in 3 4; do for b in main new; do
  exe=$main; [[ $b == new ]] && exe=$new
  $exe bench --graph /tmp/w/resnet50.pb --feed input:8,224,224,3 --fetch probs --target_cpu native --threads 1 --min_time 6 --profile p8-resnet50-$b-$r.json > p8-resnet50-$b-$r.txt 2>&1
  echo "b8 profile resnet50 $b r$r: $(grep -E '^ +8 ' p8-resnet50-$b-$r.txt | head -1)"
done; done
echo "fma_peak $(/tmp/pack-fma_peak) GFLOP/s; $(uptime)"
