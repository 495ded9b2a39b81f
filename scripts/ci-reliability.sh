#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/ci-reliability.sh - Sanitizer, TSan and fuzz steps of CI ------===#
#
# Run by scripts/test.sh after the test suite when CI=true (or by hand, after
# scripts/test.sh has built build/). Each step builds only what it runs, in
# its own directory, through ccache:
#  1. asan: the runtime's unit tests (tfaot_runtime_test) under ASan+UBSan,
#     built in build-asan/ with the `asan` preset (only that target: the
#     runtime and its tests, not the compiler).
#  2. tsan: scripts/tsan-check.sh: the thread pool's unit tests and
#     concurrent Run()s of two compiled models under ThreadSanitizer (the
#     models come from build/).
#  3. fuzz: the libFuzzer target that needs no compiler build (jpeg: the
#     runtime's decoder) for a fixed $TFAOT_CI_FUZZ_SECONDS (default 30)
#     over its seeds (scripts/fuzz.sh, build-fuzz/).
# Prints each step's wall time; exits non-zero naming the steps that failed,
# after running all of them. A sanitizer report aborts its test binary,
# which fails its step.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${TFAOT_CI_FUZZ_SECONDS:-30}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
            -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

asan_step() {
  cmake --preset asan "${launcher[@]}" >/dev/null
  cmake --build build-asan --target tfaot_runtime_test -- -j "$jobs"
  # The preset's options: the first report aborts the binary, with its stack.
  ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
  UBSAN_OPTIONS=abort_on_error=1:halt_on_error=1:print_stacktrace=1 \
    build-asan/test/unit/tfaot_runtime_test --gtest_brief=1
}

tsan_step() {
  "$root/scripts/tsan-check.sh"
}

fuzz_step() {
  "$root/scripts/fuzz.sh" --time "$fuzz_seconds" jpeg
}

failed=()
summary=()
for step in asan tsan fuzz; do
  echo "ci-reliability: $step"
  start=$(date +%s)
  rc=0
  "${step}_step" || rc=$?
  took=$(( $(date +%s) - start ))
  if [[ $rc -ne 0 ]]; then
    failed+=("$step")
    summary+=("$step: FAILED (exit $rc) after ${took} s")
  else
    summary+=("$step: passed in ${took} s")
  fi
done
echo "ci-reliability: summary"
printf '  %s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "ci-reliability: failed: ${failed[*]}" >&2
  exit 1
fi
