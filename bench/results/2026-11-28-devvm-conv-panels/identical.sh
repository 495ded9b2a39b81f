#!/bin/bash
# Bit-identity of this branch's outputs against main's.
cd /tmp/pk
for m in resnet50 mobilenet_v2; do for b in 1 8; do
  for bin in main D; do
    exe=/tmp/pk/tfaot-D; [[ $bin == main ]] && exe=/work/main/build/bin/tfaot
    rm -rf id-$bin-$m-$b; $exe run --graph /tmp/w/$m.pb --feed input:$b,224,224,3 --fetch probs --target_cpu native --threads 1 --seed 7 --output_dir id-$bin-$m-$b > id-$bin-$m-$b.log 2>&1
  done
  for f in id-main-$m-$b/*.npy; do cmp $f id-D-$m-$b/$(basename $f) && echo "$m b$b $(basename $f) identical"; done
done; done
