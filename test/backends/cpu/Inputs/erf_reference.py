"""Writes the inputs and the reference of approximate-math-erf.test:
x.npy, 40001 float32 points over [-6, 6] plus +-0, +-inf and the largest
and smallest normal floats and NaN, and ref/y.npy, erf of each point computed in
double precision by Python's math.erf and rounded to float32."""
import math
import os
import sys

import numpy as np

out = sys.argv[1]
tiny = np.finfo(np.float32).tiny
big = np.finfo(np.float32).max
x = np.concatenate([np.linspace(-6, 6, 40001, dtype=np.float32),
                    np.array([0.0, -0.0, np.inf, -np.inf, tiny, -tiny, big,
                              -big, np.nan], dtype=np.float32)])
y = np.array([math.erf(float(v)) for v in x], dtype=np.float32)
os.makedirs(os.path.join(out, "ref"), exist_ok=True)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "ref", "y.npy"), y)
