#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/test.sh - Build tfaot and run every test ----------------------===#
#
# Builds everything (scripts/build.sh) and runs the whole suite through
# ctest: the lit/FileCheck tests, the gtest units, the end-to-end corpus
# tests, and the comparisons of compiled TF.js models with TF.js itself.
# With CI=true, then scripts/ci-reliability.sh (sanitizers, TSan,
# fuzzing). Exits non-zero if anything fails. .ci/run calls this script.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TFAOT_BUILD_DIR:-$root/build}

# The TF.js oracle (npm packages pinned in tools/tfjs-oracle) must be in place
# before CMake configures, which registers the e2e.tfjs tests only then.
"$root/scripts/setup.sh"
"$root/scripts/setup-tfjs-oracle.sh"
"$root/scripts/build.sh"
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
# CI (CI=true) also runs the runtime under ASan+UBSan and TSan and fuzzes
# for a fixed time (scripts/ci-reliability.sh: about 5 more minutes with a
# warm ccache on 2 cores, 12 cold; docs/reliability.md); its TSan step runs
# the models of this build.
if [[ ${CI:-} == true ]]; then
  TFAOT_BUILD_DIR=$build_dir "$root/scripts/ci-reliability.sh"
fi
