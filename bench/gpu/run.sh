#!/bin/bash
# usage: bench/gpu/run.sh OUT_DIR [MODELS] [BATCHES]
#
# On a machine with an NVIDIA GPU: compiles ResNet-50 and MobileNetV2 (the
# graphs of tfaot_gen_models) with --target=cuda and --target=cpu at each
# batch size, links each pair with bench/gpu/gpu_bench.cpp (g++), checks
# the CUDA results against the CPU build's and times the CUDA Run().
# Writes OUT_DIR/gpu_bench.jsonl (one line per model and batch) and the
# logs. MODELS default "resnet50 mobilenet_v2", BATCHES "1 32".
#
# Tools, from the environment or a build directory:
#   TFAOT (build/bin/tfaot), TFAOT_GEN_MODELS (build/bin/tfaot_gen_models),
#   TFAOT_RUNTIME_LIBS (the directory holding libtfaot_runtime.a and
#   libtfaot_cuda_runtime.a), GPU_ARCH (sm_90), CXX (g++), CPU_THREADS
#   (nproc, for the CPU reference run), GPU_BENCH_WORK (OUT_DIR/work: the
#   generated graphs, objects and programs).
set -u
out=$1
models=${2:-resnet50 mobilenet_v2}
batches=${3:-1 32}
root=$(cd "$(dirname "$0")/../.." && pwd)
tfaot=${TFAOT:-$root/build/bin/tfaot}
gen=${TFAOT_GEN_MODELS:-$root/build/bin/tfaot_gen_models}
libs=${TFAOT_RUNTIME_LIBS:-}
arch=${GPU_ARCH:-sm_90}
cxx=${CXX:-g++}
threads=${CPU_THREADS:-$(nproc)}
if [ -z "$libs" ]; then
  libs=$root/build/gpu-bench-libs
  mkdir -p "$libs"
  cp "$root/build/runtime/libtfaot_runtime.a" \
     "$root/build/runtime/lib/cuda/libtfaot_cuda_runtime.a" "$libs/" || exit 2
fi
work=${GPU_BENCH_WORK:-$out/work}
mkdir -p "$out" "$work" || exit 2

# shellcheck disable=SC2086 # the model list is space separated
"$gen" "$work" --only "$(echo $models | tr ' ' ',')" >"$work/gen.log" 2>&1 ||
  { cat "$work/gen.log"; exit 2; }

class() { # resnet50 -> Resnet50, mobilenet_v2 -> MobilenetV2
  echo "$1" | sed -E 's/(^|_)([a-z])/\U\2/g'
}

# All the compiles at once (each is one thread); then link and run in turn.
pids=()
for m in $models; do
  for b in $batches; do
    for t in cuda cpu; do
      flags=(--target=$t)
      [ "$t" = cuda ] && flags+=(--gpu_arch="$arch")
      [ "$t" = cpu ] && flags+=(--target_cpu native)
      "$tfaot" compile --graph "$work/$m.pb" --feed "input:$b,224,224,3" \
        --fetch logits --fetch probs --cpp_class "$t::$(class "$m")" \
        "${flags[@]}" --out_header "$work/${m}_b${b}_$t.h" \
        --out_function_object "$work/${m}_b${b}_$t.o" \
        >"$work/${m}_b${b}_$t.log" 2>&1 &
      pids+=($!)
    done
  done
done
SECONDS=0
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
echo "compiled $models at batch $batches in ${SECONDS} s (in parallel)"
[ $failed = 0 ] || { tail -n 5 "$work"/*.log; exit 2; }

rc=0
for m in $models; do
  for b in $batches; do
    exe=$work/${m}_b${b}_bench
    "$cxx" -O2 -std=c++17 -I"$root/runtime/include" -I"$work" \
      -DTFAOT_BENCH_CUDA_HEADER="\"${m}_b${b}_cuda.h\"" \
      -DTFAOT_BENCH_CUDA_CLASS="cuda::$(class "$m")" \
      -DTFAOT_BENCH_CPU_HEADER="\"${m}_b${b}_cpu.h\"" \
      -DTFAOT_BENCH_CPU_CLASS="cpu::$(class "$m")" \
      "$root/bench/gpu/gpu_bench.cpp" "$work/${m}_b${b}_cuda.o" \
      "$work/${m}_b${b}_cpu.o" "$libs/libtfaot_cuda_runtime.a" \
      "$libs/libtfaot_runtime.a" -ldl -lpthread -o "$exe" || { rc=2; continue; }
    "$exe" --name "$m" --threads "$threads" | tee -a "$out/gpu_bench.jsonl"
    r=${PIPESTATUS[0]}
    [ "$r" -gt "$rc" ] && rc=$r
  done
done
exit $rc
