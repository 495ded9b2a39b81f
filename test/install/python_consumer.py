# SPDX-License-Identifier: Apache-2.0
"""install.python's program: the installed tfaot package (found through
PYTHONPATH alone, as the README's recipe says) compiles uTensor's
reshape_2 in process and loads the library the installed tfaot made from
it; both give TensorFlow's output_y.idx.

    python3 python_consumer.py PREFIX RESHAPE2_DIR LIBRARY.so IDX_MODULE_DIR
"""
import os
import sys

import numpy as np

prefix, reshape2_dir, library, idx_dir = sys.argv[1:5]
sys.path.append(idx_dir)
from idx import read_idx  # noqa: E402

import tfaot  # noqa: E402

where = os.path.realpath(tfaot.__file__)
if not where.startswith(os.path.realpath(prefix) + os.sep):
    sys.exit("tfaot was imported from %s, not from the prefix %s" %
             (where, prefix))
x = read_idx(os.path.join(reshape2_dir, "input_x.idx"))
want = read_idx(os.path.join(reshape2_dir, "output_y.idx"))
compiled = tfaot.compile(os.path.join(reshape2_dir, "test_reshape_2.pb"),
                         feeds={"x": (5, 3)}, fetches="y")
loaded = tfaot.load(library)
for how, model in (("compile", compiled), ("load", loaded)):
    np.testing.assert_allclose(model(x), want, rtol=1e-5, atol=1e-6)
    print("%s: y matches TensorFlow's output_y.idx (%d values)" %
          (how, want.size))
