#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/tsan-check.sh - Concurrent runs under ThreadSanitizer ---------===#
#
# Builds with -fsanitize=thread, against the runtime's sources, and runs:
#  - test/e2e/tsan/concurrent_runs.cpp with the api_fc model (instances on
#    8 threads at once);
#  - test/e2e/tsan/shared_pool_runs.cpp with the emotion model of the
#    e2e.tfjs tests (instances on 4 threads sharing one thread pool, and
#    one instance on its own pool);
#  - the runtime's thread pool unit tests (test/unit/runtime/
#    thread_pool_test.cpp, with GoogleTest's sources).
# The models come from the test build ($TFAOT_BUILD_DIR, default build/; run
# scripts/test.sh first). Needs clang-22's sanitizer runtimes (Debian:
# libclang-rt-22-dev). Exit 0: no report, no mismatch, every test passed.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TFAOT_BUILD_DIR:-$root/build}
models=$build_dir/test/e2e/models
if [[ ! -f $models/api_fc.o ]]; then
  echo "tsan-check: no $models/api_fc.o; build the tests first (scripts/test.sh)" >&2
  exit 1
fi
tfjs_models=$build_dir/test/e2e/tfjs/models
if [[ ! -f $tfjs_models/emotion.o ]]; then
  echo "tsan-check: no $tfjs_models/emotion.o; build the tests with the TF.js oracle (scripts/test.sh)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tsan=(clang++-22 -std=c++17 -O1 -g -fsanitize=thread -pthread
      -I"$root/test/e2e/support" -I"$root/runtime/include")
# The runtime, compiled once for the three programs.
runtime_objects=()
for source in "$root"/runtime/lib/*.cpp; do
  object=$out/runtime_$(basename "$source" .cpp).o
  "${tsan[@]}" -c "$source" -o "$object"
  runtime_objects+=("$object")
done
"${tsan[@]}" -I"$models" "$root/test/e2e/tsan/concurrent_runs.cpp" \
  "${runtime_objects[@]}" "$models/api_fc.o" -ljpeg -o "$out/concurrent_runs"
"${tsan[@]}" -I"$tfjs_models" "$root/test/e2e/tsan/shared_pool_runs.cpp" \
  "${runtime_objects[@]}" "$tfjs_models/emotion.o" -ljpeg \
  -o "$out/shared_pool_runs"
# GoogleTest from its sources (Debian's libgtest is not TSan-instrumented).
gtest=/usr/src/googletest/googletest
"${tsan[@]}" -I"$gtest/include" -I"$gtest" \
  "$root/test/unit/runtime/thread_pool_test.cpp" "$gtest/src/gtest-all.cc" \
  "$gtest/src/gtest_main.cc" "${runtime_objects[@]}" -ljpeg \
  -o "$out/thread_pool_test"
export TSAN_OPTIONS=halt_on_error=1
"$out/concurrent_runs"
"$out/shared_pool_runs"
"$out/thread_pool_test" --gtest_brief=1
