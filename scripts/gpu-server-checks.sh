#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# usage: scripts/gpu-server-checks.sh OUT_DIR STEP...
#
# What tfaot checks and measures on a borrowed GPU server (an x86-64 Linux
# machine with an NVIDIA GPU, the CUDA toolkit, g++ and Python with PyTorch,
# JAX and ONNX Runtime, but no LLVM packages and no network). Everything it
# needs from this repository's build travels as two tarballs made here:
#   scripts/pack-portable.sh build P.tar.xz     tfaot + its libraries
#   scripts/pack-gpu-checks.sh build C.tar.xz   the gpu.tfjs programs and the
#                                               TF.js outputs they compare with
# Steps, run in the order given; each appends to OUT_DIR/log.txt and its own
# result file, and a failing step does not stop the next:
#   portable=P.tar.xz  unpack tfaot (needed by gpu-bench and cpu-bench)
#   gpu-tfjs=C.tar.xz  run every gpu.tfjs program: corpus models on the GPU
#                      against TF.js             -> gpu_tfjs.txt
#                      and gpu.runtime.compare's program, if packed
#                                                -> gpu_runtime.txt
#   gpu-bench          bench/gpu/run.sh: ResNet-50 and MobileNetV2, CUDA vs
#                      the CPU build, timed      -> gpu_bench.jsonl
#   gpu-bench-int8     the same with --quantize=int8 (VARIANTS=int8): the
#                      CUDA int8 builds against the CPU's int8 builds, timed
#                                                -> gpu_bench.jsonl
#   gpu-bench-half     the same with --precision=fp16 and bf16 (VARIANTS=
#                      "fp16 bf16"), against the fp32 CPU build, with their
#                      errors and top-1 agreement -> gpu_bench.jsonl
#   gpu-bench-cudnn[=VARIANTS]  the same with --gpu_conv=cudnn (convolutions
#                      and their epilogues in cuDNN) for the VARIANTS given
#                      with commas (default fp16,tf32: "<model>-fp16-cudnn",
#                      "<model>-tf32-cudnn"), beside gpu-bench-half's and
#                      gpu-bench's im2col builds -> gpu_bench.jsonl
#   gpu-bench-zero-copy[=BUCKETS]  fp32 at batch 1 and 32 and a --batch
#                      BUCKETS build (default 1,8,32; VARIANTS="cuda
#                      buckets"): Run() with copies vs caller-owned device
#                      buffers, alternating, and the bucket build at each
#                      bucket and between them, against the fixed-batch
#                      builds of the same call -> gpu_bench.jsonl
#   gpu-bench-depthwise[=ROUNDS]  MobileNetV2 at batch 1 and 32, fp32 and
#                      fp16 (VARIANTS="cuda fp16"), built with
#                      --gpu_depthwise=direct and =tiled in turn, ROUNDS
#                      times (default 2, alternating direct, tiled), each
#                      against the CPU build; records renamed
#                      "<model>-depthwise-<arm>" with their round
#                                                -> gpu_bench_depthwise.jsonl
#   int8-cpu           bench/int8/run.py: int8 vs float32 tfaot builds on
#                      1 and all threads         -> int8_cpu/results.*
#   gpu-profile[=M_bB[_VARIANT]] kernel times (ncu) of one gpu-bench
#                      program (resnet50_b32_fp16-cudnn; default resnet50_b1,
#                      the fp32 build)           -> gpu_profile_<that>.csv
#   cpu-bench          tfaot bench on all cores, batch 1 and 8 -> cpu_bench.json
#   cpu-scaling        batch 1 on 1, 8 and all threads; the profile of the
#                      last                      -> cpu_profile_<model>.json
#   cpu-predict[=MODELS] batch 1 on one thread with --profile (which predicts
#                      2 to 16 threads from it), then measured on all
#                      threads, to check the prediction (default resnet50)
#                                                -> cpu_predict.txt
#   peers-xla=SCRIPT   ../shared/bench/peers_gpu_server.py's XLA part
#                                                -> anchors.json
#   peers-xla-half[=PRECISIONS]  bench/peers/xla_peers.py: XLA on the GPU
#                      at batch 1 and 32 in the given precisions, of
#                      fp16,bf16,tf32,fp32 (default fp16,bf16) -> xla.jsonl
#   peers-torch[=PARTS] bench/peers/server_peers.py (its --part; default
#                      ort-cpu,torch-gpu,torch-cpu; torch-gpu-half: fp16
#                      and bf16 on the GPU)      -> peers.jsonl
set -u
out=$1
shift
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
portable=/tmp/tfaot-portable
log=$out/log.txt
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
# gpu_bench VARIANTS [OUT [MODELS]]: bench/gpu/run.sh on those CUDA builds
# (into OUT, default $out; MODELS default run.sh's).
gpu_bench() {
  VARIANTS=$1 TFAOT=$portable/wrap/tfaot \
    TFAOT_GEN_MODELS=$portable/wrap/tfaot_gen_models \
    TFAOT_RUNTIME_LIBS=$portable/tfaot/lib GPU_BENCH_WORK=/tmp/gpu-bench \
    timeout 300 bash "$root/bench/gpu/run.sh" "${2:-$out}" ${3:+"$3"} \
    >>"$log" 2>&1
}
# graph MODEL: the generated GraphDef (gpu-bench writes it; else made here).
graph() {
  local g=/tmp/gpu-bench/$1.pb
  [ -f "$g" ] || { mkdir -p /tmp/gpu-bench && $portable/wrap/tfaot_gen_models /tmp/gpu-bench --only "$1" >/dev/null; }
  echo "$g"
}
unpack() { python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; }

# Where the CUDA toolkit is (tfaot looks for libdevice and ptxas there).
if [ -z "${TFAOT_CUDA_PATH:-}" ] && [ ! -d /usr/local/cuda ] && command -v nvcc >/dev/null; then
  export TFAOT_CUDA_PATH=$(dirname "$(dirname "$(command -v nvcc)")")
fi
{
  echo "== machine"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-300
  echo "nproc $(nproc)"; g++ --version | head -1
  command -v nvcc ptxas ncu python3; ls -d /usr/local/cuda/nvvm/libdevice 2>&1
  nvcc --version | tail -1; ls /usr/local/cuda/lib64/libcublas.so.* 2>&1
} >>"$log" 2>&1

for step in "$@"; do
  SECONDS=0
  case $step in
  portable=*)
    say "unpacking ${step#*=}"
    mkdir -p $portable && unpack "${step#*=}" $portable
    # Wrappers that give the libraries to tfaot alone (not to g++ or Python).
    mkdir -p $portable/wrap
    for tool in tfaot tfaot_gen_models; do
      printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' \
        $portable/tfaot/lib $portable/tfaot/bin/$tool >$portable/wrap/$tool
      chmod +x $portable/wrap/$tool
    done
    $portable/wrap/tfaot --version 2>&1 | tee -a "$log"
    ;;
  gpu-tfjs=*)
    say "gpu.tfjs programs"
    dir=/tmp/gpu-checks
    mkdir -p $dir && unpack "${step#*=}" $dir
    pass=0 fail=0
    for exe in $dir/gpu-checks/bin/*; do
      name=${exe##*/tfaot_tfjs_cuda_compare_}
      LD_LIBRARY_PATH=$dir/gpu-checks/lib timeout 120 "$exe" \
        --work "$dir/gpu-checks/work/$name" >"$dir/$name.log" 2>&1
      rc=$?
      if [ $rc = 0 ]; then pass=$((pass + 1)); s=PASS
      elif [ $rc = 77 ]; then s=SKIP
      else fail=$((fail + 1)); s="FAIL($rc)"; fi
      echo "$s gpu.tfjs.$name" | tee -a "$log"
      { echo "### gpu.tfjs.$name: $s"; cat "$dir/$name.log"; } >>"$out/gpu_tfjs.txt"
    done
    say "gpu.tfjs: $pass passed, $fail failed"
    if [ -x $dir/gpu-checks/extra/tfaot_gpu_runtime_test ]; then
      LD_LIBRARY_PATH=$dir/gpu-checks/lib timeout 120 \
        $dir/gpu-checks/extra/tfaot_gpu_runtime_test >"$out/gpu_runtime.txt" 2>&1
      say "gpu.runtime.compare: exit $?"
    fi
    ;;
  gpu-bench)
    say "gpu bench"
    gpu_bench "cuda tf32"
    say "gpu bench: exit $?"
    ;;
  gpu-bench-int8)
    say "gpu bench, int8"
    gpu_bench int8
    say "gpu bench int8: exit $?"
    ;;
  gpu-bench-half)
    say "gpu bench, fp16 and bf16"
    gpu_bench "fp16 bf16"
    say "gpu bench half: exit $?"
    ;;
  gpu-bench-cudnn|gpu-bench-cudnn=*)
    cudnn_variants=fp16,tf32
    [[ $step == *=* ]] && cudnn_variants=${step#*=}
    cudnn_variants=$(echo "$cudnn_variants" | tr ',' '\n' | sed 's/$/-cudnn/' | tr '\n' ' ')
    say "gpu bench, cuDNN convolutions: $cudnn_variants"
    gpu_bench "$cudnn_variants"
    say "gpu bench cudnn: exit $?"
    ;;
  gpu-bench-zero-copy|gpu-bench-zero-copy=*)
    bucket_list=1,8,32
    [[ $step == *=* ]] && bucket_list=${step#*=}
    say "gpu bench: caller-owned buffers and batch buckets ($bucket_list)"
    BUCKETS=$bucket_list gpu_bench "cuda buckets"
    say "gpu bench zero-copy: exit $?"
    ;;
  gpu-bench-depthwise|gpu-bench-depthwise=*)
    rounds=2
    [[ $step == *=* ]] && rounds=${step#*=}
    say "gpu bench: MobileNetV2 depthwise kernels direct vs tiled, $rounds rounds"
    for r in $(seq "$rounds"); do
      for arm in direct tiled; do
        dir=$out/depthwise-$arm-$r
        GPU_FLAGS=--gpu_depthwise=$arm gpu_bench "cuda fp16" "$dir" mobilenet_v2
        say "gpu bench depthwise $arm round $r: exit $?"
        sed -E "s/^\{\"model\": \"([^\"]*)\"/{\"model\": \"\1-depthwise-$arm\", \"round\": $r/" \
          "$dir/gpu_bench.jsonl" >>"$out/gpu_bench_depthwise.jsonl"
      done
    done
    ;;
  int8-cpu)
    say "int8 vs float32 on the CPU (1 and $(nproc) threads)"
    python3 "$root/bench/int8/run.py" --bin $portable/wrap --out "$out/int8_cpu" \
      --threads "1,$(nproc)" --rounds 1 --min_time 2 --samples 16 \
      --skip_sizes >>"$log" 2>&1
    say "int8 cpu: exit $?"
    ;;
  gpu-profile|gpu-profile=*)
    which=resnet50_b1
    [ "$step" != gpu-profile ] && which=${step#*=}
    say "gpu profile (ncu, $which)"
    # A variant's program (resnet50_b32_fp16-cudnn), else the fp32 build's.
    exe=/tmp/gpu-bench/${which}_bench
    [ -x "$exe" ] || exe=/tmp/gpu-bench/${which}_cuda_bench
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum \
      --csv --page raw \
      "$exe" --name "${which%_b*}" --iters 0 --min-time 0 \
      >"$out/gpu_profile_$which.csv" 2>>"$log"
    say "gpu profile: exit $?"
    ;;
  cpu-bench)
    say "cpu bench ($(nproc) threads)"
    for m in resnet50 mobilenet_v2; do
      $portable/wrap/tfaot bench \
        --graph "$(graph $m)" --feed input:1,224,224,3 --fetch probs \
        --batch 1,8 --threads "$(nproc)" --target_cpu native --min_time 2 \
        --json >>"$out/cpu_bench.json" 2>>"$log"
    done
    say "cpu bench done"
    ;;
  cpu-scaling)
    say "cpu scaling: batch 1 on 1, 8 and $(nproc) threads, profiled on $(nproc)"
    for m in resnet50 mobilenet_v2; do
      for t in 1 8 "$(nproc)"; do
        profile=()
        [ "$t" = "$(nproc)" ] && profile=(--profile "$out/cpu_profile_$m.json")
        $portable/wrap/tfaot bench --graph "$(graph $m)" --feed input:1,224,224,3 \
          --fetch probs --threads "$t" --target_cpu native --min_time 1 \
          "${profile[@]}" >>"$log" 2>&1
      done
    done
    say "cpu scaling done"
    ;;
  cpu-predict|cpu-predict=*)
    models=resnet50
    [[ $step == *=* ]] && models=$(echo "${step#*=}" | tr ',' ' ')
    say "cpu prediction: $models on 1 thread profiled, then $(nproc) threads"
    for m in $models; do
      for t in 1 "$(nproc)"; do
        profile=()
        [ "$t" = 1 ] && profile=(--profile /tmp/cpu_predict_$m.json)
        echo "### $m, $t threads" >>"$out/cpu_predict.txt"
        timeout 200 $portable/wrap/tfaot bench --graph "$(graph $m)" \
          --feed input:1,224,224,3 --fetch probs --threads "$t" \
          --target_cpu native --min_time 1 "${profile[@]}" \
          >>"$out/cpu_predict.txt" 2>&1
      done
    done
    say "cpu prediction done"
    ;;
  peers-xla=*)
    say "peers: XLA"
    script=$(realpath "${step#*=}")  # It runs from OUT.
    (cd "$out" && OUT=$out PYTHONUNBUFFERED=1 timeout 300 python3 "$script" jax) >>"$log" 2>&1
    say "peers XLA: exit $?"
    ;;
  peers-xla-half|peers-xla-half=*)
    precisions=fp16,bf16
    [ "$step" != peers-xla-half ] && precisions=${step#*=}
    say "peers: XLA ($precisions)"
    PYTHONUNBUFFERED=1 timeout 330 python3 "$root/bench/peers/xla_peers.py" \
      --precisions "$precisions" --deadline 220 --out "$out/xla.jsonl" \
      >>"$log" 2>&1
    say "peers XLA ($precisions): exit $?"
    ;;
  peers-torch|peers-torch=*)
    parts=ort-cpu,torch-gpu,torch-cpu
    [ "$step" != peers-torch ] && parts=${step#*=}
    say "peers: $parts"
    PYTHONUNBUFFERED=1 timeout 330 python3 "$root/bench/peers/server_peers.py" \
      --part "$parts" --deadline 220 --out "$out/peers.jsonl" >>"$log" 2>&1
    say "peers torch: exit $?"
    ;;
  *)
    say "unknown step '$step'"
    ;;
  esac
  echo "   ($step: ${SECONDS} s)" | tee -a "$log"
done
