#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Compiles one graph with two tfaot binaries and times the two builds in one
# process, Run() of each in turn (alternate_two_models.cpp): the ratio of
# their medians, and whether their first results are byte-identical.
#
#   bench/ab/ab_two_builds.sh OLD_TFAOT NEW_TFAOT GRAPH FEED FETCH [THREADS [RUNS]]
#
# FEED is one float32 input as `compile --feed` takes it (input:1,224,224,3);
# FETCH one or more outputs, comma-separated. THREADS defaults to 1, RUNS
# (per build) to 100. Both objects link with this checkout's runtime
# (BUILD, default build/), so OLD_TFAOT should be a recent one. Extra
# compile flags for both: TFAOT_FLAGS (default --target_cpu native).
# Separate `tfaot bench` processes on a shared VM move by several percent
# from minute to minute; in one process both builds see the same machine.
set -euo pipefail

# The usage is the comment above from its synopsis on, so it cannot drift
# from it when the header changes.
usage() {
  awk '/^#   bench\/ab/ {on = 1} on && !/^#/ {exit} on {sub(/^# ?/, ""); print}' "$0" >&2
  exit 2
}
[[ $# -ge 5 && $# -le 7 ]] || usage
old=$1 new=$2 graph=$3 feed=$4 fetch=$5 threads=${6:-1} runs=${7:-100}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD:-$root/build}
runtime=$build/runtime/libtfaot_runtime.a
for binary in "$old" "$new"; do
  [[ -x $binary ]] || { echo "ab_two_builds: $binary: not an executable" >&2; exit 1; }
done
[[ -f $graph ]] || { echo "ab_two_builds: $graph: no such graph" >&2; exit 1; }
[[ -f $runtime ]] || { echo "ab_two_builds: $runtime: build the runtime first (cmake --build $build)" >&2; exit 1; }
cxx=${CXX:-$(command -v clang++-22 || command -v c++)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetches=()
IFS=, read -ra names <<< "$fetch"
for name in "${names[@]}"; do fetches+=(--fetch "$name"); done
read -ra flags <<< "${TFAOT_FLAGS:---target_cpu native}"
"$old" compile --graph "$graph" --feed "$feed" "${fetches[@]}" "${flags[@]}" \
  --cpp_class m::A --out_header "$work/a.h" --out_function_object "$work/a.o"
"$new" compile --graph "$graph" --feed "$feed" "${fetches[@]}" "${flags[@]}" \
  --cpp_class m::B --out_header "$work/b.h" --out_function_object "$work/b.o"
"$cxx" -O2 -std=c++17 -I "$work" -I "$root/runtime/include" \
  "$here/alternate_two_models.cpp" "$work/a.o" "$work/b.o" "$runtime" \
  -lpthread -o "$work/ab"
"$work/ab" "$threads" "$runs"
