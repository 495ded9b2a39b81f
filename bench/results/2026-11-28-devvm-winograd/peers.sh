#!/bin/bash
# Whole-model, unprofiled, one thread, pinned to core 1: ORT, tfaot direct,
# tfaot auto in turn; ResNet-50 at batch 1 (two rounds) and batch 8 (one).
T=/tmp/wg/tfaot-v3
run_tfaot() { # algo batch
  echo "tfaot-$1 b$2 $(taskset -c 1 $T bench --graph /tmp/wg/resnet50.pb --feed input:$2,224,224,3 --fetch probs --threads 1 --target_cpu native --min_time 3 --conv_algorithm $1 2>&1 | sed -n 3p) load $(cut -d' ' -f1 /proc/loadavg)"
}
for round in 1 2; do
  echo "ort b1 $(cd /tmp/cpu-ort && taskset -c 1 node ort_time.js resnet50.onnx 1 1) load $(cut -d' ' -f1 /proc/loadavg)"
  run_tfaot direct 1
  run_tfaot auto 1
done
echo "ort b8 $(cd /tmp/cpu-ort && taskset -c 1 node ort_time.js resnet50.onnx 1 8) load $(cut -d' ' -f1 /proc/loadavg)"
run_tfaot direct 8
run_tfaot auto 8
