#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
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
# VARIANTS (default "cuda tf32") picks the CUDA builds: cuda (fp32), tf32
# (--allow_tf32), int8 (--quantize=int8, each batch size calibrated on 8
# generated images, or one batch if larger, as "<model>-int8": checked
# against the CPU's int8 build to 1% of the largest logit, since the GPU's
# epilogue contracts multiply-adds into FMAs and an int8 rounding may flip),
# fp16 and bf16 (--precision=fp16 / bf16: half-precision weights and
# activations, as "<model>-fp16" / "<model>-bf16", checked against the fp32
# CPU build to 5% / 10% of the largest logit; gpu_bench also reports their
# mean error and top-1 agreement). Each of cuda, tf32, fp16 and bf16 also
# comes as "<variant>-cudnn" (--gpu_conv=cudnn: convolutions and their
# bias/residual/ReLU epilogues in cuDNN, timed as "<model>-<variant>-cudnn"
# and checked to the same bound as the variant; the machine needs
# libcudnn.so.9). buckets (fp32 with --batch $BUCKETS, default 1,8,32, as
# "<model>-buckets", built only at the batch size equal to the largest
# bucket, whose CPU build is its reference) is timed by gpu_bench at each
# bucket and at sizes between them. Every CUDA build is also timed with
# caller-owned device buffers (set_arg_device_ptr / set_result_device_ptr)
# alternating with Run()'s copies. A build that fails to compile is
# skipped (its log's tail printed, exit 2); the others still run.
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
variants=${VARIANTS:-cuda tf32}
buckets=${BUCKETS:-1,8,32}
bucket_max=${buckets##*,}
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

# The int8 builds' calibration samples, one file per batch size, uniform
# in [0, 1) like the bench's inputs.
if [[ " $variants " == *" int8 "* ]]; then
  for b in $batches; do
    python3 "$root/test/tools/Inputs/write_npy.py" "$work/calibration_b$b.npy" \
      $((b > 8 ? b : 8)) 224 224 3 --seed 9 || exit 2
  done
fi

# All the compiles at once (each is one thread); then link and run in turn.
# Each CUDA variant is compared with the CPU build of its precision: cpu,
# or cpu8 (the CPU's int8 build) for int8.
builds=""
for v in $variants; do
  case $v in
  int8) builds="$builds $v cpu8" ;;
  *) [[ " $builds " == *" cpu "* ]] || builds="$builds cpu"; builds="$builds $v" ;;
  esac
done
pids=() built=()
for m in $models; do
  for b in $batches; do
    for t in $builds; do
      [ "$t" = buckets ] && [ "$b" != "$bucket_max" ] && continue
      int8=(--quantize=int8 --calibration "$work/calibration_b$b.npy"
            --quantize_report "$work/${m}_b${b}_$t.report.json" --quiet)
      # shellcheck disable=SC2206 # GPU_FLAGS is a list of flags
      conv=()
      [[ $t == *-cudnn ]] && conv=(--gpu_conv=cudnn)
      case ${t%-cudnn} in
      cuda) flags=(--target=cuda --gpu_arch="$arch" ${GPU_FLAGS:-}) ;;
      buckets) flags=(--target=cuda --gpu_arch="$arch" --batch "$buckets" ${GPU_FLAGS:-}) ;;
      tf32) flags=(--target=cuda --gpu_arch="$arch" --allow_tf32 ${GPU_FLAGS:-}) ;;
      fp16|bf16) flags=(--target=cuda --gpu_arch="$arch" --precision="${t%-cudnn}" ${GPU_FLAGS:-}) ;;
      int8) flags=(--target=cuda --gpu_arch="$arch" ${GPU_FLAGS:-} "${int8[@]}") ;;
      cpu) flags=(--target=cpu --target_cpu native) ;;
      cpu8) flags=(--target=cpu --target_cpu native "${int8[@]}") ;;
      *) echo "unknown variant '$t'"; exit 2 ;;
      esac
      "$tfaot" compile --graph "$work/$m.pb" --feed "input:$b,224,224,3" \
        --fetch logits --fetch probs --cpp_class "${t//-/_}::$(class "$m")" \
        "${flags[@]}" "${conv[@]}" --out_header "$work/${m}_b${b}_$t.h" \
        --out_function_object "$work/${m}_b${b}_$t.o" \
        >"$work/${m}_b${b}_$t.log" 2>&1 &
      pids+=($!)
      built+=("${m}_b${b}_$t")
    done
  done
done
SECONDS=0
failed=" "
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed="$failed${built[$i]} "
done
echo "compiled $models at batch $batches in ${SECONDS} s (in parallel)"
rc=0
for f in $failed; do
  echo "compile of $f failed:"; tail -n 5 "$work/$f.log"; rc=2
done

for m in $models; do
  for b in $batches; do
    # TF32 rounds the products' inputs to a 10-bit mantissa: its logits are
    # checked to 1% of their largest magnitude, fp32's to the default; int8
    # against the CPU's int8 build, its logits to 1% too (above) and its
    # probabilities by top-1 (a flipped int8 step moves a softmax output by
    # more than 1% of its peak: MobileNetV2 b32, 2026-11-27). fp16 and bf16 also
    # round every activation stored between layers (about 100 roundings in
    # ResNet-50, each up to 2^-11 relative for fp16 and 2^-8 for bf16, that
    # add up like a random walk): a few tenths of a percent of the largest
    # logit for fp16, a few percent for bf16. Their bounds, 5% and 10%,
    # leave room for that and still catch a wrong layer; the top-1
    # agreement is reported, not checked.
    for t in $variants; do
      [ "$t" = buckets ] && [ "$b" != "$bucket_max" ] && continue
      exe=$work/${m}_b${b}_${t}_bench
      name=$m rtol=() ref=cpu
      base=${t%-cudnn}
      [ "$base" = tf32 ] && { name=$m-tf32; rtol=(--rtol 1e-2); }
      [ "$base" = int8 ] && { name=$m-int8; rtol=(--rtol 1e-2 --bound-only logits); ref=cpu8; }
      [ "$base" = fp16 ] && { name=$m-fp16; rtol=(--rtol 5e-2); }
      [ "$base" = bf16 ] && { name=$m-bf16; rtol=(--rtol 1e-1); }
      [ "$t" = cuda-cudnn ] && name=$m-cuda
      [ "$t" = buckets ] && name=$m-buckets
      [ "$t" != "$base" ] && name=$name-cudnn
      if [[ "$failed" == *" ${m}_b${b}_$t "* || "$failed" == *" ${m}_b${b}_$ref "* ]]; then
        echo "skipping $name at batch $b: a compile failed"
        continue
      fi
      "$cxx" -O2 -std=c++17 -I"$root/runtime/include" -I"$work" \
        -DTFAOT_BENCH_CUDA_HEADER="\"${m}_b${b}_$t.h\"" \
        -DTFAOT_BENCH_CUDA_CLASS="${t//-/_}::$(class "$m")" \
        -DTFAOT_BENCH_CPU_HEADER="\"${m}_b${b}_$ref.h\"" \
        -DTFAOT_BENCH_CPU_CLASS="$ref::$(class "$m")" \
        "$root/bench/gpu/gpu_bench.cpp" "$work/${m}_b${b}_$t.o" \
        "$work/${m}_b${b}_$ref.o" "$libs/libtfaot_cuda_runtime.a" \
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
exit "$rc"
