#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/setup.sh - Install what building tfaot needs -----------------===#
#
# Installs the Debian packages tfaot builds and tests with, when any is
# missing. Idempotent and silent when everything is already there. Needs root
# (or sudo) only when something has to be installed.
#
#===------------------------------------------------------------------------===#
set -euo pipefail

PACKAGES=(
  build-essential python3
  llvm-22 llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  protobuf-compiler libprotobuf-dev
  libgtest-dev googletest
  cmake ninja-build ccache
  libjpeg62-turbo-dev   # DecodeJpeg's runtime decoder
  libjpeg-turbo-progs   # cjpeg/djpeg: the JPEG tests' images and references
  libclang-rt-22-dev  # libFuzzer and sanitizer runtimes: scripts/fuzz.sh
  g++-aarch64-linux-gnu qemu-user  # the aarch64 runtime and demo (cross-aarch64.test)
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python package (tools/python) and its tests
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
# Node.js runs the TF.js oracle the tests compare against. Some machines
# carry a newer node (with its own npm) that conflicts with Debian's npm
# package, so look for the commands rather than the packages.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo)
else
  echo "tfaot setup: error: these packages are missing and installing them needs root:" >&2
  echo "  ${missing[*]}" >&2
  echo "run this script as root (or with passwordless sudo), or install them yourself:" >&2
  echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "tfaot setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { "${SUDO[@]}" apt-get update -q && \
       "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "tfaot setup: error: apt-get failed (log above)" >&2
  exit 1
fi
rm -f "$log"
echo "tfaot setup: done"
