#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/demo.sh - Build tfaot and run the MNIST demo ------------------===#
#
# Builds everything (scripts/build.sh), which compiles uTensor's
# simple_mnist.pb with `tfaot compile` into an object + header and links it
# into build/bin/mnist_demo; then runs the demo.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TFAOT_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
if [[ ! -x "$build_dir/bin/mnist_demo" ]]; then
  echo "demo: error: $build_dir/bin/mnist_demo was not built; the demo needs" \
       "the shared corpus at $root/../shared/corpus" >&2
  exit 1
fi
# tfaot_library() writes its outputs under tfaot_library/<name>/ in the
# binary directory of the CMakeLists.txt that calls it (cmake/TfaotLibrary.cmake).
header=$build_dir/examples/mnist/tfaot_library/mnist_model/mnist_model.h
if [[ ! -f "$header" ]]; then
  echo "demo: error: the generated header $header is missing" >&2
  exit 1
fi
echo "--- the generated header (first lines) ---"
sed -n '1,20p' "$header"
echo "--- running $build_dir/bin/mnist_demo ---"
"$build_dir/bin/mnist_demo"
