#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#===- scripts/fuzz.sh - Build and run tfaot's libFuzzer targets -------------===#
#
#   scripts/fuzz.sh [--time SECONDS] [--runs N] [--no-build] [--build-dir DIR]
#                   [target...] [-- libFuzzer flags...]
#
# Targets: graphdef (binary .pb), pbtxt (text .pbtxt), tfjs (model.json NUL
# weights), savedmodel (saved_model.pb + checkpoint, length-prefixed), jpeg
# (JPEG bytes + 2 bytes of decode options); default all five, 10 s each. Builds them with clang-22 and
# -fsanitize=fuzzer,address,undefined in build-fuzz/ (or DIR), seeds a
# temporary corpus from ../shared/corpus and test/compiler, and runs each
# target for SECONDS (or N executions). Prints per target the executions
# and findings; exits non-zero if any target found a crash, leak, UB, hang
# or out-of-memory. Reproducers are kept in build-fuzz/fuzz-findings/.
# ctest -L fuzz runs each target for 5 s through this script (--no-build).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$root/build-fuzz
seconds=10
runs=
build=1
targets=()
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --time) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-dir) build_dir=$(cd "$2" && pwd); shift 2 ;;
    --) shift; extra=("$@"); break ;;
    graphdef|pbtxt|tfjs|savedmodel|jpeg) targets+=("$1"); shift ;;
    -h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(graphdef pbtxt tfjs savedmodel jpeg)
corpus=${TFAOT_CORPUS_DIR:-$root/../shared/corpus}

if [[ $build == 1 ]]; then
  "$root/scripts/setup.sh"
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
              -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  if [[ ! -f "$build_dir/build.ninja" ]]; then
    # Release with line tables: fast enough to fuzz, and symbolized reports.
    # The tests are off: only the fuzzers (and what their seeds need)
    # are built here.
    cmake -S "$root" -B "$build_dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS=-gline-tables-only -DCMAKE_CXX_FLAGS=-gline-tables-only \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DTFAOT_BUILD_FUZZERS=ON -DTFAOT_BUILD_TESTS=OFF \
      "${launcher[@]}" >/dev/null
  fi
  # Only what the targets run: the savedmodel seeds need
  # tfaot-write-savedmodel, and the jpeg target alone needs no compiler
  # library at all (CI fuzzes it; scripts/ci-reliability.sh).
  build_targets=("${targets[@]/#/tfaot-fuzz-}")
  [[ " ${targets[*]} " == *" savedmodel "* ]] &&
    build_targets+=(tfaot-write-savedmodel)
  cmake --build "$build_dir" -j "$(nproc)" --target "${build_targets[@]}"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tfaot-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
findings_dir=$build_dir/fuzz-findings

# Largest input per target: small inputs keep the rate in the thousands a
# second. Seeds above it are left out rather than truncated into useless
# prefixes; the TF.js models are cut down by test/fuzz/tfjs_seeds.py.
max_len_of() {
  case $1 in
    graphdef|pbtxt) echo 65536 ;;
    tfjs|jpeg) echo 8192 ;;
    savedmodel) echo 65536 ;;
  esac
}

# Copies the seed files given on stdin (one path a line) that fit.
add_seeds() {
  local dir=$1 max=$2 f
  while IFS= read -r f; do
    [[ $(stat -c %s "$f") -le $max ]] && cp "$f" "$dir/$(basename "$f")"
  done
  return 0
}

gather_seeds() {
  local target=$1 dir=$2 max
  max=$(max_len_of "$target")
  mkdir -p "$dir"
  case $target in
    graphdef)
      find "$corpus/frozen" "$corpus/graphdef-import" -name '*.pb' \
        2>/dev/null | add_seeds "$dir" "$max" ;;
    pbtxt)
      find "$corpus/graphdef-import" "$root/test/compiler" \
        -name '*.pbtxt' 2>/dev/null | add_seeds "$dir" "$max" ;;
    tfjs)
      # The lit tests' MLP: JSON, NUL, both shards (all quantizations).
      python3 "$root/test/compiler/Inputs/tfjs-mlp-weights.py" "$work"
      { cat "$root/test/compiler/Inputs/tfjs-mlp.json"; printf '\0'
        cat "$work"/tfjs-mlp-shard1of2.bin "$work"/tfjs-mlp-shard2of2.bin
      } > "$dir/tfjs-mlp"
      # The corpus models, cut down to a few kB with their real weights.
      python3 "$root/test/fuzz/tfjs_seeds.py" "$dir" $(( max * 3 / 4 )) \
        "$corpus"/tfjs/*.json ;;
    savedmodel)
      # tfaot-write-savedmodel's single-shard layouts, then the corpus's
      # saved_model.pb files without variables.
      local kind
      for kind in tf2 tf2-names tf1 badcrc badindex truncated sliced \
                  missingvar; do
        "$build_dir/bin/tfaot-write-savedmodel" "$kind" "$work/sm-$kind" \
          >/dev/null
        python3 "$root/test/fuzz/savedmodel_seed.py" "$work/sm-$kind" \
          "$dir/$kind"
      done
      find "$corpus/frozen" -name '*saved_model.pb' 2>/dev/null |
        while IFS= read -r f; do
          python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read();
sys.stdout.buffer.write(struct.pack("<I", len(d)) + d)' "$f" \
            > "$dir/$(basename "$f")"
        done ;;
    jpeg)
      # The e2e test's images (written at build time in the test build, or
      # here), each with decode options: whole, cropped, scaled, gray.
      local images=$work/jpeg-images f
      python3 "$root/test/e2e/jpeg/make_jpegs.py" "$images" >/dev/null
      for f in "$images"/*.jpg; do
        for mode in '\x06\x00' '\x07\x35' '\x16\x00' '\x0f\x21' \
                    '\x47\x00'; do
          { cat "$f"; printf "$mode"; } > "$dir/$(basename "$f" .jpg)-${mode//\\x/}"
        done
      done ;;
  esac
  ls "$dir" | wc -l
}

status=0
summary=()
for target in "${targets[@]}"; do
  exe=$build_dir/bin/tfaot-fuzz-$target
  if [[ ! -x $exe ]]; then
    echo "fuzz.sh: $exe is missing (build with -DTFAOT_BUILD_FUZZERS=ON)" >&2
    exit 1
  fi
  dir=$work/corpus-$target
  nseeds=$(gather_seeds "$target" "$dir")
  artifacts=$work/artifacts-$target/
  mkdir -p "$artifacts"
  limit=(-max_total_time="$seconds")
  [[ -n $runs ]] && limit=(-runs="$runs")
  run=$work/run-$target
  mkdir -p "$run"
  echo "fuzz.sh: $target: $nseeds seeds, $([[ -n $runs ]] && echo "$runs runs" || echo "$seconds s")"
  rc=0
  # -jobs=1: one fuzzing process, so the execution count is exact; libFuzzer
  # runs it as a child that logs to fuzz-0.log in the current directory.
  # -timeout makes a hang a finding; the memory limits an allocation storm.
  (cd "$run" &&
   ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
   UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
     "$exe" "$dir" "${limit[@]}" -max_len="$(max_len_of "$target")" \
       -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=2048 -jobs=1 \
       -print_final_stats=1 -artifact_prefix="$artifacts" \
       ${extra[@]+"${extra[@]}"} >"$run/parent.log" 2>&1) || rc=$?
  log=$run/fuzz-0.log
  [[ -f $log ]] || log=$run/parent.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  found=$(ls "$artifacts" | wc -l)
  if [[ $rc -ne 0 || $found -ne 0 ]]; then
    status=1
    mkdir -p "$findings_dir"
    cp "$artifacts"* "$findings_dir/" 2>/dev/null || true
    cp "$log" "$findings_dir/$target.log"
    grep -m1 -E '^==[0-9]+==ERROR|runtime error|^SUMMARY|ALARM|out-of-memory|tfaot fuzz:' \
      "$log" | sed 's/^/    /' || true
    line="$target: FINDING (exit $rc): ${execs:-?} executions; reproducers and log in $findings_dir"
  else
    line="$target: ${execs:-?} executions (${secs:-?} exec/s), 0 findings"
  fi
  echo "fuzz.sh: $line"
  summary+=("$line")
done
echo "fuzz.sh: summary"
printf '  %s\n' "${summary[@]}"
exit $status
