#!/bin/bash
# A/B at batch 1, one thread, pinned to core 1: ORT, tfaot direct, tfaot
# auto in turn, twice; tfaot profiled (per-op medians).
T=/tmp/wg/tfaot-v3
for i in 1 2; do
  echo "ort b1 $i $(cd /tmp/cpu-ort && taskset -c 1 node ort_time.js resnet50.onnx 1 1) load $(cut -d' ' -f1 /proc/loadavg)"
  for a in direct auto; do
    taskset -c 1 $T bench --graph /tmp/wg/resnet50.pb --feed input:1,224,224,3 --fetch probs --threads 1 --target_cpu native --min_time 3 --conv_algorithm $a --profile /tmp/wg/ab/$a-$i.json > /tmp/wg/ab/$a-$i.txt 2>&1
    echo "tfaot-$a b1 $i $(sed -n 3p /tmp/wg/ab/$a-$i.txt) load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
