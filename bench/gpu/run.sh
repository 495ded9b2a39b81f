#!/bin/bash
# usage: bench/gpu/run.sh OUT_DIR [MODELS] [BATCHES]
#
# On a machine with an NVIDIA GPU: compiles ResNet-50 and MobileNetV2 (the
# graphs of tfaot_gen_models) with --target=cuda (fp32, and with
# --allow_tf32 as "<model>-tf32") and --target=cpu at each batch size,
# links each CUDA build with the CPU one and bench/gpu/gpu_bench.cpp (g++),
# checks the CUDA results against the CPU build's and times the CUDA Run()
# (fp32 also with TFAOT_CUDA_GRAPHS=0, as "<model>-nograph"). GPU_FLAGS
# adds flags to the CUDA compiles (e.g. --gpu_gemm=kernels).
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
    for t in cuda tf32 cpu; do
      # shellcheck disable=SC2206 # GPU_FLAGS is a list of flags
      case $t in
      cuda) flags=(--target=cuda --gpu_arch="$arch" ${GPU_FLAGS:-}) ;;
      tf32) flags=(--target=cuda --gpu_arch="$arch" --allow_tf32 ${GPU_FLAGS:-}) ;;
      cpu) flags=(--target=cpu --target_cpu native) ;;
      esac
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
    # TF32 rounds the products' inputs to a 10-bit mantissa: its logits are
    # checked to 1% of their largest magnitude, fp32's to the default.
    for t in cuda tf32; do
      exe=$work/${m}_b${b}_${t}_bench
      name=$m rtol=()
      [ "$t" = tf32 ] && { name=$m-tf32; rtol=(--rtol 1e-2); }
      "$cxx" -O2 -std=c++17 -I"$root/runtime/include" -I"$work" \
        -DTFAOT_BENCH_CUDA_HEADER="\"${m}_b${b}_$t.h\"" \
        -DTFAOT_BENCH_CUDA_CLASS="$t::$(class "$m")" \
        -DTFAOT_BENCH_CPU_HEADER="\"${m}_b${b}_cpu.h\"" \
        -DTFAOT_BENCH_CPU_CLASS="cpu::$(class "$m")" \
        "$root/bench/gpu/gpu_bench.cpp" "$work/${m}_b${b}_$t.o" \
        "$work/${m}_b${b}_cpu.o" "$libs/libtfaot_cuda_runtime.a" \
        "$libs/libtfaot_runtime.a" -ldl -lpthread -o "$exe" || { rc=2; continue; }
      "$exe" --name "$name" --threads "$threads" "${rtol[@]}" |
        tee -a "$out/gpu_bench.jsonl"
      r=${PIPESTATUS[0]}
      [ "$r" -gt "$rc" ] && rc=$r
      # What the CUDA graph saves: the fp32 build launching kernel by kernel.
      if [ "$t" = cuda ]; then
        TFAOT_CUDA_GRAPHS=0 "$exe" --name "$m-nograph" --threads "$threads" |
          tee -a "$out/gpu_bench.jsonl"
        r=${PIPESTATUS[0]}
        [ "$r" -gt "$rc" ] && rc=$r
      fi
    done
  done
done
exit $rc
