#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""XLA (through JAX) on the GPU as a peer for tfaot's CUDA builds:
ResNet-50 and MobileNetV2 in fp32, TF32, fp16 and bf16.

    python3 bench/peers/xla_peers.py [--precisions fp16,bf16,tf32,fp32]
        [--models resnet50,mobilenet_v2] [--batches 1,32] [--device gpu]
        [--iters 20] [--min-time 1] [--deadline SECONDS] [--out FILE]
    python3 bench/peers/xla_peers.py --selftest      (numpy only, no JAX)

The networks are those of bench/models/gen_models.cpp, NHWC, 224x224x3
inputs uniform in [0, 1): ResNet-50 v1.5 (the stride on the 3x3 conv,
projection shortcuts, symmetric padding) and MobileNetV2 1.0 (padded SAME,
as Keras: 0 before and 1 after a stride-2 conv), each batch norm folded into
its convolution as a bias, global average pool, dense layer to 1000 logits
and a softmax. Weights are random (He-normal, numpy seed 0, the last conv
of each residual branch scaled by 0.5 so that activations stay small enough
for fp16).

Precisions: fp32 (matmul precision "highest": no TF32), tf32 (float32
tensors, jax.default_matmul_precision("tensorfloat32")), fp16 and bf16 (the
weights and the input cast to that type, so XLA runs the convolutions and
the dense layer on tensor cores with its own accumulation; the pooling mean
and the softmax are computed in float32, as tfaot's --precision builds do).

Each point is jitted, called once (its compile_s: tracing, compiling,
autotuning and the first run), run 3 more times, then timed: the median of
at least --iters calls and --min-time seconds, each call waited for with
block_until_ready (inputs and weights already on the device, as tfaot's
RunDeviceResident()). Prints one JSON object per line and appends it to
--out: {"model", "peer": "xla", "device", "gpu", "batch", "precision",
"median_ms", "p90_ms", "min_ms", "iterations", "compile_s", "version"}. A
point that fails prints an {"error": ...} line and the others go on;
--deadline starts no point after that many seconds, saying so.

--selftest runs the same network code on a small numpy stand-in for the few
jax.numpy and jax.lax functions it uses, at batch 2: it checks the shapes
([2, 1000] logits), the parameter counts and that the activations fit fp16.
"""
import argparse
import contextlib
import json
import sys
import time

import numpy as np

START = time.time()

# name: (tensor dtype, jax.default_matmul_precision or None to leave it).
PRECISIONS = {"fp32": ("float32", "highest"),
              "tf32": ("float32", "tensorfloat32"),
              "fp16": ("float16", None),
              "bf16": ("bfloat16", None)}


class Layers:
    """The operations the networks are made of, written on `jnp` and `lax`
    (JAX's, or the numpy stand-ins below). Each conv or dense layer takes
    the next (weights, bias) pair of `params`; with params=None it makes
    them as it meets the layers (He-normal, seeded), so one pass of a
    network over any input creates its weights."""

    def __init__(self, jnp, lax, params=None, seed=0):
        self.jnp, self.lax = jnp, lax
        self.make = params is None
        self.params = [] if params is None else params
        self.used = 0
        self.rng = np.random.default_rng(seed)

    def weights(self, shape, fan_in, gain):
        if self.make:
            w = self.rng.standard_normal(shape) * gain * np.sqrt(2.0 / fan_in)
            b = 0.05 * self.rng.standard_normal(shape[-1])
            self.params.append((w.astype(np.float32), b.astype(np.float32)))
        w, b = self.params[self.used]
        self.used += 1
        assert tuple(w.shape) == tuple(shape), (w.shape, shape)
        return w, b

    def activate(self, y, act):
        if act == "relu":
            return self.jnp.maximum(y, 0)
        if act == "relu6":
            return self.jnp.clip(y, 0, 6)
        return y

    def conv(self, x, cout, k, stride=1, padding="SAME", groups=1, act=None,
             gain=1.0):
        cin = x.shape[-1]
        w, b = self.weights((k, k, cin // groups, cout), k * k * cin // groups,
                            gain)
        y = self.lax.conv_general_dilated(
            x, w, (stride, stride), padding,
            dimension_numbers=("NHWC", "HWIO", "NHWC"),
            feature_group_count=groups)
        return self.activate(y + b, act)

    def max_pool(self, x):
        """3x3, stride 2, padded by 1 on each side."""
        return self.lax.reduce_window(
            x, np.array(-np.inf, x.dtype), self.lax.max, (1, 3, 3, 1),
            (1, 2, 2, 1), ((0, 0), (1, 1), (1, 1), (0, 0)))

    def classify(self, x, classes=1000):
        """Global average pool, dense layer, softmax: (logits, probs)."""
        jnp = self.jnp
        pooled = jnp.mean(x.astype(np.float32), axis=(1, 2)).astype(x.dtype)
        w, b = self.weights((pooled.shape[-1], classes), pooled.shape[-1], 1.0)
        logits = pooled @ w + b
        z = logits.astype(np.float32)
        e = jnp.exp(z - jnp.max(z, axis=-1, keepdims=True))
        return logits, e / jnp.sum(e, axis=-1, keepdims=True)


def resnet50(L, x):
    x = L.conv(x, 64, 7, 2, ((3, 3), (3, 3)), act="relu")
    x = L.max_pool(x)
    for stage, (blocks, mid) in enumerate(((3, 64), (4, 128), (6, 256),
                                           (3, 512))):
        for i in range(blocks):
            stride = 2 if i == 0 and stage > 0 else 1
            shortcut = L.conv(x, 4 * mid, 1, stride) if i == 0 else x
            h = L.conv(x, mid, 1, act="relu")
            h = L.conv(h, mid, 3, stride, ((1, 1), (1, 1)), act="relu")
            h = L.conv(h, 4 * mid, 1, gain=0.5)
            x = L.jnp.maximum(h + shortcut, 0)
    return L.classify(x)


def mobilenet_v2(L, x):
    x = L.conv(x, 32, 3, 2, act="relu6")
    # (expansion t, channels c, repeats n, first stride s)
    for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                       (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)):
        for i in range(n):
            stride = s if i == 0 else 1
            cin = x.shape[-1]
            residual = stride == 1 and cin == c
            h = L.conv(x, cin * t, 1, act="relu6") if t != 1 else x
            h = L.conv(h, cin * t, 3, stride, groups=cin * t, act="relu6")
            h = L.conv(h, c, 1, gain=0.5 if residual else 1.0)
            x = x + h if residual else h
    x = L.conv(x, 1280, 1, act="relu6")
    return L.classify(x)


NETWORKS = {"resnet50": resnet50, "mobilenet_v2": mobilenet_v2}


class NumpyLax:
    """numpy stand-ins for the jax.lax functions Layers uses (the subset of
    their semantics it needs), computing in the input's dtype; `largest`
    is the largest magnitude any of them produced."""
    largest = 0.0
    max = staticmethod(np.maximum)

    @staticmethod
    def _pads(size, k, stride, padding):
        if padding == "VALID":
            return (0, 0)
        if padding == "SAME":  # as XLA: the odd one after
            total = max((-(-size // stride) - 1) * stride + k - size, 0)
            return (total // 2, total - total // 2)
        return tuple(padding)

    @classmethod
    def _seen(cls, y):
        cls.largest = max(cls.largest, float(np.abs(y).max()))
        return y

    @classmethod
    def conv_general_dilated(cls, x, w, window_strides, padding,
                             dimension_numbers, feature_group_count=1):
        assert dimension_numbers == ("NHWC", "HWIO", "NHWC")
        n, height, width, cin = x.shape
        kh, kw, cin_group, cout = w.shape
        groups = feature_group_count
        assert cin == cin_group * groups and cout % groups == 0, \
            (x.shape, w.shape, groups)
        sh, sw = window_strides
        if isinstance(padding, str):
            padding = (padding, padding)
        ph = cls._pads(height, kh, sh, padding[0])
        pw = cls._pads(width, kw, sw, padding[1])
        x = np.pad(x, ((0, 0), ph, pw, (0, 0)))
        oh = (x.shape[1] - kh) // sh + 1
        ow = (x.shape[2] - kw) // sw + 1
        taps = [x[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw]
                for i in range(kh) for j in range(kw)]
        if groups == 1:
            patches = np.concatenate(taps, axis=-1)  # (i, j, c) order: HWIO
            y = patches @ w.reshape(kh * kw * cin, cout)
        elif cin_group == 1 and cout == groups:  # depthwise, multiplier 1
            y = sum(tap * w[t // kw, t % kw, 0] for t, tap in enumerate(taps))
        else:
            raise NotImplementedError("grouped convolution")
        return cls._seen(y.astype(x.dtype))

    @classmethod
    def reduce_window(cls, x, init, computation, window, strides, padding):
        assert computation is np.maximum and len(window) == x.ndim
        x = np.pad(x, padding, constant_values=init)
        out = None
        for index in np.ndindex(*window):
            view = x[tuple(slice(i, i + s * ((d - k) // s) + 1, s)
                           for i, s, d, k in zip(index, strides, x.shape,
                                                 window))]
            out = view if out is None else np.maximum(out, view)
        return cls._seen(out)


def make_params(net):
    """The network's weights, float32 numpy: one pass over a small image."""
    L = Layers(np, NumpyLax)
    net(L, np.zeros((1, 32, 32, 3), np.float32))
    return L.params


def selftest():
    counts = {"resnet50": (25.4e6, 25.6e6), "mobilenet_v2": (3.4e6, 3.6e6)}
    rng = np.random.default_rng(1)
    for name, net in NETWORKS.items():
        params = make_params(net)
        count = sum(w.size + b.size for w, b in params)
        NumpyLax.largest = 0.0
        x = rng.random((2, 224, 224, 3), dtype=np.float32)
        logits, probs = net(Layers(np, NumpyLax, params), x)
        low, high = counts[name]
        assert logits.shape == (2, 1000) and probs.shape == (2, 1000), \
            (logits.shape, probs.shape)
        assert np.isfinite(logits).all()
        assert np.allclose(probs.sum(axis=-1), 1, atol=1e-5)
        assert low <= count <= high, count
        assert NumpyLax.largest < 65504 / 8, NumpyLax.largest  # fp16 headroom
        print(f"{name}: {len(params)} layers, {count / 1e6:.2f} M parameters, "
              f"logits {logits.shape} std {logits.std():.2f}, largest "
              f"activation {NumpyLax.largest:.1f}: ok")
    # The networks' weights, cast as the half-precision points cast them.
    w = make_params(mobilenet_v2)[0][0].astype(np.float16)
    assert w.dtype == np.float16 and np.isfinite(w).all()
    print("selftest passed")
    return 0


def emit(args, row):
    print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")


def measure(args, jax, device, name, params, batch, precision):
    jnp, lax = jax.numpy, jax.lax
    dtype_name, matmul = PRECISIONS[precision]
    dtype = getattr(jnp, dtype_name)
    net = NETWORKS[name]
    weights = [(jax.device_put(w, device).astype(dtype),
                jax.device_put(b, device).astype(dtype)) for w, b in params]
    image = np.random.default_rng(batch).random((batch, 224, 224, 3),
                                                dtype=np.float32)
    x = jax.device_put(image, device).astype(dtype)
    forward = jax.jit(lambda p, x: net(Layers(jnp, lax, p), x))

    def call():
        for out in forward(weights, x):
            out.block_until_ready()

    # The precision is part of jit's cache key: every call inside it.
    scope = (jax.default_matmul_precision(matmul) if matmul
             else contextlib.nullcontext())
    with scope:
        t0 = time.perf_counter()
        call()
        compile_s = time.perf_counter() - t0
        for _ in range(3):
            call()
        times = []
        start = time.perf_counter()
        while len(times) < args.iters or \
                time.perf_counter() - start < args.min_time:
            t0 = time.perf_counter()
            call()
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    emit(args, {"model": name, "peer": "xla", "device": args.device,
                "gpu": device.device_kind, "batch": batch,
                "precision": precision, "median_ms": float(np.median(times)),
                "p90_ms": times[min(len(times) - 1, int(0.9 * len(times)))],
                "min_ms": times[0], "iterations": len(times),
                "compile_s": round(compile_s, 1), "version": jax.__version__})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--precisions", default="fp16,bf16,tf32,fp32",
                        help="of " + ",".join(PRECISIONS))
    parser.add_argument("--models", default="resnet50,mobilenet_v2",
                        help="of " + ",".join(NETWORKS))
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--device", default="gpu")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--deadline", type=float, default=0)
    parser.add_argument("--out")
    parser.add_argument("--selftest", action="store_true")
    args = parser.parse_args()
    if args.selftest:
        return selftest()
    precisions = args.precisions.split(",")
    models = args.models.split(",")
    for p in precisions:
        if p not in PRECISIONS:
            parser.error(f"unknown precision '{p}'")
    for m in models:
        if m not in NETWORKS:
            parser.error(f"unknown model '{m}'")

    try:
        import jax
        device = jax.devices(args.device)[0]
    except Exception as e:  # no JAX, or no such device: say so in the file
        emit(args, {"peer": "xla", "device": args.device, "error": repr(e)})
        return 1
    print(f"jax {jax.__version__} on {device.device_kind}", flush=True)
    params = {name: make_params(NETWORKS[name]) for name in models}
    for precision in precisions:
        for name in models:
            for batch in map(int, args.batches.split(",")):
                what = f"{name} batch {batch} {precision}"
                if args.deadline and time.time() - START > args.deadline:
                    emit(args, {"skipped": what, "reason":
                                f"past the {args.deadline} s deadline"})
                    continue
                try:
                    measure(args, jax, device, name, params[name], batch,
                            precision)
                except Exception as e:  # one point failing must not stop the rest
                    emit(args, {"model": name, "peer": "xla", "batch": batch,
                                "precision": precision, "error": repr(e)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
