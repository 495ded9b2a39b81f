"""Writes the inputs and references of approximate-math.test into OUT/erf
and OUT/exp: x.npy, the points, and ref/y.npy, the function of each point
computed in double precision by Python's math module and rounded to
float32.

erf: 40001 points over [-6, 6] plus +-0, +-inf, the largest and smallest
normal floats and NaN. exp: 200001 points over [-87, 88] (results normal
floats) plus 0, +-inf and NaN."""
import math
import os
import sys

import numpy as np


def write(out, x, function):
    y = np.array([function(float(v)) for v in x], dtype=np.float32)
    os.makedirs(os.path.join(out, "ref"), exist_ok=True)
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "ref", "y.npy"), y)


def exp(v):
    if math.isnan(v) or math.isinf(v):
        return v if v > 0 or math.isnan(v) else 0.0
    return math.exp(v)


out = sys.argv[1]
tiny = np.finfo(np.float32).tiny
big = np.finfo(np.float32).max
special = [np.inf, -np.inf, np.nan]
write(os.path.join(out, "erf"),
      np.concatenate([np.linspace(-6, 6, 40001, dtype=np.float32),
                      np.array([0.0, -0.0, tiny, -tiny, big, -big] + special,
                               dtype=np.float32)]),
      math.erf)
write(os.path.join(out, "exp"),
      np.concatenate([np.linspace(-87, 88, 200001, dtype=np.float32),
                      np.array([0.0] + special, dtype=np.float32)]),
      exp)
