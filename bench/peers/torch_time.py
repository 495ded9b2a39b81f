#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Times PyTorch (CPU) on the networks bench/models/gen_models.cpp writes,
as a peer for `tfaot bench`.

    /usr/bin/python3 bench/peers/torch_time.py --model resnet50 --batch 8
        [--threads N] [--min_time SECONDS] [--iters N] [--mode best|eager|jit]

The networks are built here with the same layers, channels and strides as
the generated GraphDefs (ResNet-50 v1.5 and MobileNetV2 as Keras lays them
out, the 784-512-256-10 MLP, one BERT-base encoder layer with Erf Gelu);
the weights are random, which does not change the time. Convolutions take
NCHW, PyTorch's native layout, with channels_last memory (oneDNN's fast
path), inputs uniform in [0, 1) like `tfaot bench`.

Two ways of running are timed, and by default the faster is reported, so
the peer is at its best: eager mode under torch.inference_mode(), and
TorchScript frozen and optimized for inference (batch norm folded into the
convolutions, oneDNN fusions), which is what PyTorch recommends for CPU
deployment. Prints one JSON object:
  {"model": "resnet50", "batch": 8, "threads": 1, "mode": "jit",
   "torch": "1.13.0", "iterations": 12, "median_ms": ..., "p90_ms": ...,
   "min_ms": ..., "eager_median_ms": ..., "jit_median_ms": ...}

PyTorch is Debian's python3-torch (no PyPI here), so run it with the
system interpreter /usr/bin/python3.
"""
import argparse
import json
import math
import statistics
import sys
import time

import torch
from torch import nn


def conv_bn(cin, cout, kernel, stride=1, groups=1, padding=None):
    if padding is None:
        padding = kernel // 2
    return [nn.Conv2d(cin, cout, kernel, stride, padding, groups=groups,
                      bias=False),
            nn.BatchNorm2d(cout, eps=1e-3)]


class Bottleneck(nn.Module):
    """ResNet-50 v1.5 block: the stride is on the 3x3 convolution."""

    def __init__(self, cin, mid, stride, project):
        super().__init__()
        self.body = nn.Sequential(
            *conv_bn(cin, mid, 1), nn.ReLU(),
            *conv_bn(mid, mid, 3, stride), nn.ReLU(),
            *conv_bn(mid, mid * 4, 1))
        self.shortcut = (nn.Sequential(*conv_bn(cin, mid * 4, 1, stride))
                         if project else nn.Identity())

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


def resnet50():
    layers = [*conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for stage, (blocks, mid) in enumerate([(3, 64), (4, 128), (6, 256),
                                           (3, 512)]):
        for i in range(blocks):
            stride = 2 if i == 0 and stage > 0 else 1
            layers.append(Bottleneck(cin, mid, stride, i == 0))
            cin = mid * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000),
               nn.Softmax(dim=1)]
    return nn.Sequential(*layers)


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, expansion, stride):
        super().__init__()
        hidden = cin * expansion
        layers = []
        if expansion != 1:
            layers += [*conv_bn(cin, hidden, 1), nn.ReLU6()]
        layers += [*conv_bn(hidden, hidden, 3, stride, groups=hidden),
                   nn.ReLU6(), *conv_bn(hidden, cout, 1)]
        self.body = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.residual else y


def mobilenet_v2():
    layers = [*conv_bn(3, 32, 3, 2), nn.ReLU6()]
    cin = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                       (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for i in range(n):
            layers.append(InvertedResidual(cin, c, t, s if i == 0 else 1))
            cin = c
    layers += [*conv_bn(320, 1280, 1), nn.ReLU6(), nn.AdaptiveAvgPool2d(1),
               nn.Flatten(), nn.Linear(1280, 1000), nn.Softmax(dim=1)]
    return nn.Sequential(*layers)


def mlp():
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256),
                         nn.ReLU(), nn.Linear(256, 10), nn.Softmax(dim=1))


class BertLayer(nn.Module):
    """One BERT-base encoder layer: hidden 768, 12 heads, FFN 3072, exact
    (Erf) Gelu, layer norms after the residual adds."""

    def __init__(self, hidden=768, heads=12, intermediate=3072):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attention_out = nn.Linear(hidden, hidden)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def split_heads(self, x):
        n, s, _ = x.shape
        return x.view(n, s, self.heads, self.head_size).transpose(1, 2)

    def forward(self, x):
        n, s, h = x.shape
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(
            self.head_size)
        context = torch.matmul(torch.softmax(scores, dim=-1), v)
        context = context.transpose(1, 2).reshape(n, s, h)
        attended = self.norm1(x + self.attention_out(context))
        inter = nn.functional.gelu(self.intermediate(attended))
        return self.norm2(attended + self.output(inter))


MODELS = {
    "resnet50": (resnet50, lambda b: (b, 3, 224, 224), True),
    "mobilenet_v2": (mobilenet_v2, lambda b: (b, 3, 224, 224), True),
    "mlp": (mlp, lambda b: (b, 784), False),
    "bert_layer": (BertLayer, lambda b: (b, 128, 768), False),
}


def time_runs(fn, iters, min_time):
    for _ in range(3):
        fn()
    times = []
    start = time.perf_counter()
    while len(times) < iters or time.perf_counter() - start < min_time:
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return {"iterations": len(times), "median_ms": statistics.median(times),
            "p90_ms": times[min(len(times) - 1, int(0.9 * len(times)))],
            "min_ms": times[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, choices=sorted(MODELS))
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--min_time", type=float, default=1.0)
    parser.add_argument("--mode", choices=["best", "eager", "jit"],
                        default="best")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    build, shape, is_conv = MODELS[args.model]
    model = build().eval()
    x = torch.rand(shape(args.batch))
    if is_conv:
        model = model.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)

    results = {}
    if args.mode in ("best", "eager"):
        with torch.inference_mode():
            results["eager"] = time_runs(lambda: model(x), args.iters,
                                         args.min_time)
    if args.mode in ("best", "jit"):
        with torch.no_grad():
            frozen = torch.jit.optimize_for_inference(
                torch.jit.freeze(torch.jit.trace(model, x)))
            results["jit"] = time_runs(lambda: frozen(x), args.iters,
                                       args.min_time)
    mode = min(results, key=lambda m: results[m]["median_ms"])
    report = {"model": args.model, "batch": args.batch,
              "threads": torch.get_num_threads(), "mode": mode,
              "torch": torch.__version__, **results[mode]}
    for name, figures in results.items():
        report[f"{name}_median_ms"] = figures["median_ms"]
    print(json.dumps(report))


if __name__ == "__main__":
    sys.exit(main())
