#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# usage: scripts/pack-gpu-checks.sh BUILD_DIR OUT.tar.xz [NAME...]
#
# Packs the gpu.tfjs programs (test/e2e/tfjs: the corpus models compiled
# with --target=cuda) with the inputs and TF.js outputs that their CPU
# tests e2e.tfjs.<name> saved, for a GPU machine without node or the
# corpus: there, scripts/gpu-server-checks.sh's gpu-tfjs step runs each as
#   LD_LIBRARY_PATH=gpu-checks/lib gpu-checks/bin/tfaot_tfjs_cuda_compare_<name>
#       --work gpu-checks/work/<name>
# NAMEs (default: every program built) pick the models; run the e2e.tfjs
# tests first so that their work directories are there. gpu.runtime.compare's
# program (test/e2e/gpu) goes along as gpu-checks/extra/ with the default or
# when a NAME is "runtime-test".
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
shift 2
dir=$build/test/e2e/tfjs
names=()
with_runtime_test=$([ $# = 0 ] && echo 1 || echo 0)
for name in "$@"; do
  if [ "$name" = runtime-test ]; then with_runtime_test=1; else names+=("$name"); fi
done
if [ $# = 0 ]; then
  for exe in "$dir"/tfaot_tfjs_cuda_compare_*; do
    names+=("${exe##*/tfaot_tfjs_cuda_compare_}")
  done
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/gpu-checks/bin" "$stage/gpu-checks/lib" "$stage/gpu-checks/work"
for name in "${names[@]}"; do
  exe=$dir/tfaot_tfjs_cuda_compare_$name
  work=$dir/work/$name
  [ -x "$exe" ] || { echo "no $exe (build it first)" >&2; exit 1; }
  [ -f "$work/oracle/outputs.json" ] ||
    { echo "no $work/oracle/outputs.json (run e2e.tfjs.$name first)" >&2; exit 1; }
  cp "$exe" "$stage/gpu-checks/bin/"
  mkdir -p "$stage/gpu-checks/work/$name"
  for sub in inputs oracle oracle_ulp; do
    if [ -d "$work/$sub" ]; then cp -r "$work/$sub" "$stage/gpu-checks/work/$name/"; fi
  done
done
# gpu.runtime.compare's program too (simple_mnist, fc-layers, emotion and
# blazeface, CUDA against CPU builds in one binary).
runtime_test=$build/test/e2e/gpu/tfaot_gpu_runtime_test
if [ "$with_runtime_test" = 1 ] && [ -x "$runtime_test" ]; then
  mkdir -p "$stage/gpu-checks/extra"
  cp "$runtime_test" "$stage/gpu-checks/extra/"
fi
strip "$stage/gpu-checks/bin/"* "$stage/gpu-checks/extra/"* 2>/dev/null || true
# Shared libraries the programs load besides the C and C++ runtimes.
for lib in $(ldd "$stage/gpu-checks/bin/"* "$stage/gpu-checks/extra/"* 2>/dev/null |
             awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$lib") in
    libc.so.*|libm.so.*|libgcc_s.so.*|libstdc++.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$stage/gpu-checks/lib/" ;;
  esac
done
tar -C "$stage" -cf - gpu-checks | xz -6 -T0 >"$out"
echo "$out: ${#names[@]} models, $(du -h "$out" | cut -f1)"
