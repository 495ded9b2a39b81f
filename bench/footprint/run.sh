#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# usage: bench/footprint/run.sh BUILD_DIR WORK_DIR
#
# What a program that runs a tfaot model weighs, on x86-64 and aarch64:
# each model is compiled for both targets, linked into the same small
# program (test/tools/Inputs/run_raw.cpp: read the inputs, Run(), write the
# results) with -Wl,--gc-sections and stripped, libc and libstdc++ linked
# dynamically (the system's). Prints a markdown table splitting the file
# into the model's weights (its object's read-only data), the model's code
# (its object's .text) and the rest (runtime, program, ELF tables).
#
# Needs BUILD_DIR's tfaot and runtime, and for aarch64 Debian's
# g++-aarch64-linux-gnu; the aarch64 runtime is cross-built into
# WORK_DIR/rt-a64 (runtime only, no JPEG decoding), once.
set -euo pipefail
build=$(realpath "$1")
work=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${TFAOT_CORPUS_DIR:-$src/../shared/corpus}
mkdir -p "$work"
work=$(realpath "$work")
tfaot=$build/bin/tfaot
size=$(command -v llvm-size-22 || command -v llvm-size)

if [ ! -f "$work/rt-a64/runtime/libtfaot_runtime.a" ]; then
  cmake -S "$src" -B "$work/rt-a64" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTFAOT_RUNTIME_ONLY=ON -DTFAOT_RUNTIME_JPEG=OFF -DTFAOT_BUILD_TESTS=OFF \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/aarch64-linux-gnu.cmake" >/dev/null
  cmake --build "$work/rt-a64" >/dev/null
fi

# section_bytes OBJECT PATTERN: the summed size of the object's sections
# whose names match PATTERN (llvm-size -A).
section_bytes() {
  "$size" -A "$1" | awk -v re="$2" '$1 ~ re { s += $2 } END { print s + 0 }'
}

# model NAME GRAPH FEED... -- FETCH...
models=(
  "simple_mnist|$corpus/frozen/utensor/ops/deep_mlp/simple_mnist.pb|--feed x:1,784 --fetch y_pred"
  "mobilenet_v2|$build/test/e2e/tfjs/generated/mobilenet_v2.pb|--feed input:1,224,224,3 --fetch probs"
  "blazeface|$corpus/tfjs/blazeface.json|"
)
echo "| model | target | stripped program | weights (model .rodata) | model code (.text) | runtime, program, ELF |"
echo "|---|---|---|---|---|---|"
for entry in "${models[@]}"; do
  IFS='|' read -r name graph flags <<<"$entry"
  [ -f "$graph" ] || { echo "skipped $name: $graph not found" >&2; continue; }
  for target in x86-64 aarch64; do
    dir=$work/$name-$target
    mkdir -p "$dir"
    triple=()
    cxx=(clang++-22)
    lib=$build/runtime/libtfaot_runtime.a
    if [ $target = aarch64 ]; then
      triple=(--target_triple aarch64-linux-gnu)
      cxx=(aarch64-linux-gnu-g++)
      lib=$work/rt-a64/runtime/libtfaot_runtime.a
    fi
    # shellcheck disable=SC2086 # flags are words
    "$tfaot" compile --graph "$graph" $flags --cpp_class fp::Model "${triple[@]}" \
      --out_header "$dir/model.h" --out_function_object "$dir/model.o"
    "${cxx[@]}" -std=c++17 -O2 -ffunction-sections -fdata-sections \
      -I"$dir" -I"$src/runtime/include" -DMODEL_HEADER='"model.h"' -DMODEL_CLASS=fp::Model \
      "$src/test/tools/Inputs/run_raw.cpp" "$dir/model.o" "$lib" \
      -Wl,--gc-sections -s -lpthread -lm -o "$dir/program"
    total=$(stat -c %s "$dir/program")
    weights=$(section_bytes "$dir/model.o" '^\.(l?rodata)')
    code=$(section_bytes "$dir/model.o" '^\.text')
    echo "| $name | $target | $total | $weights | $code | $((total - weights - code)) |"
  done
done
