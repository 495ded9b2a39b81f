#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# usage: ptxas_corpus.sh TFAOT CORPUS_DIR WORK_DIR
#
# Compiles corpus models with `tfaot compile --target=cuda --emit ptx` and
# checks that ptxas accepts the PTX for the architecture. Exits 77 (ctest
# SKIP) when ptxas is not installed, 1 if any model fails.
tfaot=$1 corpus=$2 work=$3
ptxas=${TFAOT_PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$ptxas" ]; then
  echo "SKIP: no ptxas at $ptxas (install the CUDA toolkit or set TFAOT_PTXAS)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
failed=0 passed=0
# name | architecture | graph | compile flags
while IFS='|' read -r name arch graph flags; do
  [ -z "$name" ] && continue
  ptx=$work/$name.$arch.ptx
  # shellcheck disable=SC2086 # $flags is a list of flags.
  if ! "$tfaot" compile --graph "$corpus/$graph" $flags --target=cuda \
      --gpu_arch="$arch" --emit ptx -o "$ptx" 2>"$work/$name.log"; then
    echo "FAIL $name ($arch): tfaot: $(head -c 400 "$work/$name.log")"
    failed=$((failed + 1))
  elif ! "$ptxas" --gpu-name "$arch" "$ptx" -o "$work/$name.$arch.cubin" \
      2>"$work/$name.ptxas.log"; then
    echo "FAIL $name ($arch): ptxas: $(head -c 400 "$work/$name.ptxas.log")"
    failed=$((failed + 1))
  else
    echo "ok   $name ($arch): $(grep -c '^\.visible \.entry' "$ptx") kernels"
    passed=$((passed + 1))
  fi
done <<'MODELS'
simple_mnist|sm_90|frozen/utensor/models/simple_mnist.pb|--feed x --fetch y_pred
simple_mnist|sm_80|frozen/utensor/models/simple_mnist.pb|--feed x --fetch y_pred
fc_layers|sm_90|frozen/tf2onnx/fc-layers.frozen.pb|--feed X:8,784 --fetch output
ae0|sm_89|frozen/tf2onnx/ae0.frozen.pb|--feed X:1,784 --fetch output
age|sm_90|tfjs/age.json|
emotion|sm_90|tfjs/emotion.json|
antispoof|sm_90|tfjs/antispoof.json|
blazeface|sm_90|tfjs/blazeface.json|
iris|sm_90|tfjs/iris.json|
mobileface|sm_90|tfjs/mobileface.json|
faceboxes|sm_90|tfjs/faceboxes.json|--feed image_tensor:1,128,128,3
handtrack|sm_90|tfjs/handtrack.json|--feed input_tensor:1,320,320,3
MODELS
echo "$passed passed, $failed failed ($ptxas)"
[ "$failed" -eq 0 ]
