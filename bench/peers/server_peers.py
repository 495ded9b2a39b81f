#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Peers for tfaot on the GPU server: ResNet-50 and MobileNetV2 in ONNX
Runtime and PyTorch on the CPU, and torch.compile on the GPU.

    python3 bench/peers/server_peers.py --part ort-cpu,ort-int8-cpu,torch-cpu,torch-gpu,torch-gpu-half
        [--models resnet50,mobilenet_v2] [--deadline SECONDS] [--out FILE]

The networks are torch_time.py's: the same layers, channels and strides
as the GraphDefs bench/models/gen_models.cpp writes (Keras's ResNet-50 v1.5
and MobileNetV2, softmax included; --models also takes its mlp and
bert_layer), random weights. Parts:

  ort-cpu    the network exported to ONNX (dynamic batch) and run by ONNX
             Runtime's CPU provider, all cores as intra-op threads, graph
             optimizations at their default (all), batch 1 and 8;
  ort-int8-cpu  the same ONNX model quantized by ONNX Runtime's
             quantize_static (QDQ, per-channel int8 weights, uint8
             activations: its fast x86 form, U8S8; min/max calibration on
             32 samples uniform in [0, 1) like tfaot's bench calibration),
             timed with its fp32 model alternately at batch 1 and 8 on
             all cores; also the int8 model's top-1 agreement with the fp32
             one and largest output difference on 32 other samples;
  torch-cpu  PyTorch on all cores, the faster of eager (inference mode)
             and TorchScript frozen for inference, batch 1 and 8;
  torch-gpu  torch.compile (inductor, default mode) on the GPU,
             channels_last, fp32 (TF32 off) at batch 1 and 32, then with
             TF32 allowed; eager fp32 alongside ("precision": "fp32" or
             "tf32");
  torch-gpu-half  the same in float16, then bfloat16 (the model and its
             input converted with .to(dtype); "precision": "fp16", "bf16").

Inputs are uniform [0, 1) like `tfaot bench`. Each figure is the median of
at least --iters runs and --min-time seconds after warm-up runs; GPU runs
are synchronized. Prints one JSON object per line (and appends them to
--out); a part that fails prints an {"error": ...} line and the others go
on. --deadline skips what would start after that many seconds (compiles
are slow), saying so.
"""
import argparse
import json
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch_time  # noqa: E402  (the network definitions)

START = time.time()


def emit(args, row):
    print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")


def timed(fn, sync, iters, min_time):
    """torch_time's timing (3 warm-up runs, then at least `iters` runs and
    `min_time` seconds), each run synchronized by `sync`."""
    def run():
        fn()
        sync()
    return torch_time.time_runs(run, iters, min_time)


def network(name, device="cpu"):
    """The model (channels_last for the conv nets) and a function giving
    its input at a batch size, uniform [0, 1)."""
    torch.manual_seed(0)
    build, shape, is_conv = torch_time.MODELS[name]
    model = build().eval().to(device)
    layout = torch.channels_last if is_conv else torch.contiguous_format
    model = model.to(memory_format=layout)

    def example(batch):
        return torch.rand(shape(batch), device=device).contiguous(
            memory_format=layout)
    return model, example


def past_deadline(args, what):
    if args.deadline and time.time() - START > args.deadline:
        emit(args, {"skipped": what, "reason": f"past the {args.deadline} s deadline"})
        return True
    return False


def export_onnx(name):
    """The network as /tmp/tfaot_peer_NAME.onnx (dynamic batch), and its
    input function."""
    model, example = network(name)
    path = f"/tmp/tfaot_peer_{name}.onnx"
    torch.onnx.export(model, example(1), path,
                      input_names=["x"], output_names=["probs"],
                      dynamic_axes={"x": {0: "n"}, "probs": {0: "n"}},
                      dynamo=False)
    return path, example


def ort_session(path):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count()
    return ort.InferenceSession(path, options,
                                providers=["CPUExecutionProvider"])


def ort_cpu(args, name):
    import onnxruntime as ort
    path, example = export_onnx(name)
    session = ort_session(path)
    for batch in (1, 8):
        x = example(batch).contiguous().numpy()
        figures = timed(lambda: session.run(None, {"x": x}), lambda: None,
                        args.iters, args.min_time)
        emit(args, {"model": name, "peer": "onnxruntime", "device": "cpu",
                    "batch": batch, "threads": os.cpu_count(),
                    "version": ort.__version__, **figures})


def ort_int8_cpu(args, name):
    import numpy as np
    import onnxruntime as ort
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                          QuantType, quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
    path, example = export_onnx(name)
    torch.manual_seed(1)
    calibration = [example(1).contiguous().numpy() for _ in range(32)]
    check = [example(1).contiguous().numpy() for _ in range(32)]

    class Samples(CalibrationDataReader):
        def __init__(self):
            self.rest = iter(calibration)

        def get_next(self):
            x = next(self.rest, None)
            return None if x is None else {"x": x}

    prepared = path.replace(".onnx", "_prep.onnx")
    quantized = path.replace(".onnx", "_int8.onnx")
    t0 = time.time()
    quant_pre_process(path, prepared)
    quantize_static(prepared, quantized, Samples(),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    quantize_s = round(time.time() - t0, 1)
    fp32, int8 = ort_session(path), ort_session(quantized)
    agree, max_diff, max_ref = 0, 0.0, 0.0
    for x in check:
        want = fp32.run(None, {"x": x})[0]
        got = int8.run(None, {"x": x})[0]
        agree += int(np.argmax(want) == np.argmax(got))
        max_diff = max(max_diff, float(np.abs(got - want).max()))
        max_ref = max(max_ref, float(np.abs(want).max()))
    for batch in (1, 8):
        x = example(batch).contiguous().numpy()
        # Alternately, so that a slow spell hits both.
        rounds = {"fp32": [], "int8": []}
        for _ in range(3):
            for kind, session in (("fp32", fp32), ("int8", int8)):
                rounds[kind].append(timed(
                    lambda: session.run(None, {"x": x}), lambda: None,
                    args.iters, args.min_time)["median_ms"])
        fp32_ms = sorted(rounds["fp32"])[1]
        int8_ms = sorted(rounds["int8"])[1]
        emit(args, {"model": name, "peer": "onnxruntime-int8", "device": "cpu",
                    "batch": batch, "threads": os.cpu_count(),
                    "version": ort.__version__, "format": "QDQ U8S8 per-channel",
                    "fp32_median_ms": fp32_ms, "median_ms": int8_ms,
                    "speedup": round(fp32_ms / int8_ms, 3),
                    "quantize_s": quantize_s,
                    "top1_agree": agree, "top1_rows": len(check),
                    "max_abs_diff": max_diff, "max_abs_fp32": max_ref})


def torch_cpu(args, name):
    torch.set_num_threads(os.cpu_count())
    model, example = network(name)
    for batch in (1, 8):
        x = example(batch)
        with torch.inference_mode():
            eager = timed(lambda: model(x), lambda: None, args.iters,
                          args.min_time)
        with torch.no_grad():
            frozen = torch.jit.optimize_for_inference(
                torch.jit.freeze(torch.jit.trace(model, x)))
            jit = timed(lambda: frozen(x), lambda: None, args.iters,
                        args.min_time)
        best, mode = min((eager, "eager"), (jit, "jit"),
                         key=lambda r: r[0]["median_ms"])
        emit(args, {"model": name, "peer": "torch", "device": "cpu",
                    "batch": batch, "threads": torch.get_num_threads(),
                    "mode": mode, "version": torch.__version__,
                    "eager_median_ms": eager["median_ms"],
                    "jit_median_ms": jit["median_ms"], **best})


def time_eager_and_compiled(args, model, x, sync, row):
    """Times `model` on `x` eagerly and through torch.compile (its compile
    time reported apart); emits one row each, with the fields of `row`."""
    with torch.no_grad():
        eager = timed(lambda: model(x), sync, args.iters, args.min_time)
        emit(args, {**row, "peer": "torch-eager", **eager})
        torch._dynamo.reset()
        compiled = torch.compile(model)
        t0 = time.time()
        compiled(x)
        sync()
        compile_s = round(time.time() - t0, 1)
        figures = timed(lambda: compiled(x), sync, args.iters, args.min_time)
    emit(args, {**row, "peer": "torch-compile", "compile_s": compile_s,
                **figures})


def torch_gpu(args, name):
    model, example = network(name, "cuda")
    sync = torch.cuda.synchronize
    for tf32 in (False, True):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        for batch in (1, 32):
            if past_deadline(args, f"{name} torch.compile batch {batch} tf32={tf32}"):
                return
            row = {"model": name, "device": "gpu", "batch": batch,
                   "tf32": tf32, "precision": "tf32" if tf32 else "fp32",
                   "version": torch.__version__}
            time_eager_and_compiled(args, model, example(batch), sync, row)


def torch_gpu_half(args, name):
    sync = torch.cuda.synchronize
    for precision, dtype in (("fp16", torch.float16),
                             ("bf16", torch.bfloat16)):
        model, example = network(name, "cuda")
        model = model.to(dtype)
        for batch in (1, 32):
            if past_deadline(args, f"{name} torch.compile batch {batch} {precision}"):
                return
            row = {"model": name, "device": "gpu", "batch": batch,
                   "precision": precision, "version": torch.__version__}
            time_eager_and_compiled(args, model, example(batch).to(dtype),
                                    sync, row)


PARTS = {"ort-cpu": ort_cpu, "ort-int8-cpu": ort_int8_cpu,
         "torch-cpu": torch_cpu, "torch-gpu": torch_gpu,
         "torch-gpu-half": torch_gpu_half}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", default="ort-cpu,torch-cpu,torch-gpu",
                        help="of " + ",".join(PARTS))
    parser.add_argument("--models", default="resnet50,mobilenet_v2",
                        help="of " + ",".join(sorted(torch_time.MODELS)))
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--deadline", type=float, default=0)
    parser.add_argument("--out")
    args = parser.parse_args()
    for part in args.part.split(","):
        for name in args.models.split(","):
            if past_deadline(args, f"{part} {name}"):
                continue
            try:
                PARTS[part](args, name)
            except Exception as e:  # one peer failing must not stop the rest
                traceback.print_exc()
                emit(args, {"model": name, "part": part, "error": repr(e)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
