#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# usage: pairs.sh N model tagA binA tagB binB
n=$1; m=$2; ta=$3; ba=$4; tb=$5; bb=$6
for i in $(seq 1 $n); do
  for t in A B; do
    if [ $t = A ]; then tag=$ta; bin=$ba; else tag=$tb; bin=$bb; fi
    taskset -c 1 $bin bench --graph /tmp/cpu-m/$m.pb --feed input:1,224,224,3 --fetch probs --threads 1 --target_cpu native --min_time 3 --profile /tmp/cpu3/p-$m-$tag-$i.json > /tmp/cpu3/p-$m-$tag-$i.txt 2>&1
    echo "$tag $i $(sed -n 3p /tmp/cpu3/p-$m-$tag-$i.txt) | $(grep 'profile:' /tmp/cpu3/p-$m-$tag-$i.txt) | load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
