# SPDX-License-Identifier: Apache-2.0
"""tfaot: TensorFlow graphs compiled ahead of time, from Python.

    model = tfaot.compile("mnist.pb", feeds={"x": (1, 784)}, fetches="y")
    y = model(x)                     # NumPy in, NumPy out
    model = tfaot.load("mnist.so")   # tfaot compile --out_shared_library
    figures = tfaot.bench("mnist.pb", feeds="x:1,784", fetches="y")

See docs/python.md.
"""
from .errors import (CompileError, CompileWarning, Error, InputError,
                     LoadError, RunError)
from .jit import bench, compile
from .model import Model, TensorInfo
from .shared_library import load

__all__ = ["compile", "load", "bench", "Model", "TensorInfo", "Error",
           "CompileError", "CompileWarning", "InputError", "LoadError",
           "RunError"]
