#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/sanitize-check.sh - The whole test suite under ASan+UBSan -----===#
#
#   scripts/sanitize-check.sh [ctest arguments...]
#
# Configures build-asan/ with the `asan` preset of CMakePresets.json: what
# scripts/build.sh builds, tests included, with tfaot's own code, the
# runtime and the tests compiled with -fsanitize=address,undefined. Builds
# it and runs the complete ctest suite (arguments go to ctest, e.g. -R lit).
# Exit 0: every test passed, and no sanitizer reported anything (a report
# aborts the process, which fails its test). Not in CI: on two cores the
# build takes about 1.5 hours, the tests 4 to 7 minutes (see
# docs/reliability.md).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# As scripts/test.sh: the TF.js oracle must be in place before CMake
# configures, which registers the e2e.tfjs tests only then.
"$root/scripts/setup.sh"
"$root/scripts/setup-tfjs-oracle.sh"

cd "$root"
# Configured every time, so that build-asan/ follows edits of the preset.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
            -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset asan "${launcher[@]}" >/dev/null
# The presets set ASAN_OPTIONS and UBSAN_OPTIONS for the build too: it runs
# the instrumented tfaot to compile the tests' models.
cmake --build --preset asan
jobs=$(nproc 2>/dev/null || echo 2)
ctest --preset asan -j "$jobs" "$@"
