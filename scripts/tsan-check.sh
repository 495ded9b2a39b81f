#!/usr/bin/env bash
#===- scripts/tsan-check.sh - Concurrent runs under ThreadSanitizer ---------===#
#
# Builds test/e2e/tsan/concurrent_runs.cpp with -fsanitize=thread against the
# runtime's sources and the api_fc model of the test build ($TFAOT_BUILD_DIR,
# default build/; run scripts/test.sh first), and runs it. Needs clang-22's
# sanitizer runtimes (Debian: libclang-rt-22-dev). Exit 0: no report, no
# mismatch.
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
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang++-22 -std=c++17 -O1 -g -fsanitize=thread -I"$models" \
  -I"$root/test/e2e/support" -I"$root/runtime/include" "$root/test/e2e/tsan/concurrent_runs.cpp" \
  "$root"/runtime/lib/*.cpp "$models/api_fc.o" -o "$out/concurrent_runs"
TSAN_OPTIONS=halt_on_error=1 "$out/concurrent_runs"
