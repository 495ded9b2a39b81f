#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/build.sh - Configure and build tfaot --------------------------===#
#
# Installs missing packages (scripts/setup.sh), configures with clang-22 and
# Ninja against the system LLVM/MLIR 22, and builds everything, tests
# included. The build directory is $TFAOT_BUILD_DIR (default: build/).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TFAOT_BUILD_DIR:-$root/build}

"$root/scripts/setup.sh"

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths under the checkout are hashed relative to it, so a second clone
  # (another branch, CI's fresh clone) reuses what this one compiled.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
fi
if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -S "$root" -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    "${launcher[@]}" >/dev/null
fi
cmake --build "$build_dir"
