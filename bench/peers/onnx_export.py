#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Exports the networks of torch_time.py to ONNX for the ONNX Runtime peer,
and counts each one's floating-point work per item.

    /usr/bin/python3 bench/peers/onnx_export.py OUT_DIR [model ...]

Writes OUT_DIR/<model>.onnx (opset 13, input "input" with a dynamic batch
dimension) and OUT_DIR/flops.json: {"<model>": FLOP per item}, counting 2
FLOP per multiply-add of every convolution and fully connected layer
(forward hooks on nn.Conv2d and nn.Linear) and of the attention products
of the BERT layer (two [s, s] x [s, d] products per head, which are
torch.matmul calls, not modules). Elementwise work is not counted: the
figure is the one "% of the FMA peak" divides. Debian's python3-torch.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from torch import nn  # noqa: E402
import torch_time  # noqa: E402


def flops_per_item(model, x):
    macs = [0]

    def conv(module, inputs, output):
        k = module.kernel_size[0] * module.kernel_size[1]
        macs[0] += output.numel() * (module.in_channels // module.groups) * k

    def linear(module, inputs, output):
        macs[0] += output.numel() * module.in_features

    hooks = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            hooks.append(m.register_forward_hook(conv))
        elif isinstance(m, nn.Linear):
            hooks.append(m.register_forward_hook(linear))
    with torch.inference_mode():
        model(x)
    for h in hooks:
        h.remove()
    if isinstance(model, torch_time.BertLayer):
        _, s, hidden = x.shape
        macs[0] += 2 * s * s * hidden  # QK^T and (softmax)V, all heads.
    return 2 * macs[0] / x.shape[0]


def main(out_dir, names):
    os.makedirs(out_dir, exist_ok=True)
    flops = {}
    for name in names or sorted(torch_time.MODELS):
        build, shape, _ = torch_time.MODELS[name]
        torch.manual_seed(0)
        model = build().eval()
        x = torch.rand(shape(1))
        flops[name] = flops_per_item(model, x)
        torch.onnx.export(model, x, os.path.join(out_dir, name + ".onnx"),
                          input_names=["input"], output_names=["output"],
                          opset_version=13,
                          dynamic_axes={"input": {0: "n"}, "output": {0: "n"}})
        print(name, f"{flops[name] / 1e9:.4g} GFLOP per item", file=sys.stderr)
    with open(os.path.join(out_dir, "flops.json"), "w") as f:
        json.dump(flops, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
