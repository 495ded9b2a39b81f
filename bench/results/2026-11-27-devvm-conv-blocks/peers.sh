#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Whole-model, unprofiled, one thread, pinned: ORT, base, new in turn.
for i in 1 2; do
  for m in resnet50 mobilenet_v2; do
    (cd /tmp/cpu-ort && taskset -c 1 node ort_time.js $m.onnx 1 1)
    for t in base v2; do
      bin=/tmp/cpu-tfaot-$t
      echo "$t $m $i $(taskset -c 1 $bin bench --graph /tmp/cpu-m/$m.pb --feed input:1,224,224,3 --fetch probs --threads 1 --target_cpu native --min_time 3 2>&1 | sed -n 3p)"
    done
  done
done
