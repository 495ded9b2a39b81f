# SPDX-License-Identifier: Apache-2.0
"""A result whose size depends on the data (Where's coordinates, bounded
by the element count) comes back with the run's shape, through compile()
and through load() alike."""
import os

import numpy as np
import pytest

import tfaot
from conftest import HERE, shared_library

WHERE = os.path.join(HERE, "Inputs", "where.pbtxt")

# By hand: the non-zero elements of each input, row-major.
CASES = [
    ([[0, 1, 0], [2, 0, 3]], [[0, 1], [1, 0], [1, 2]]),
    ([[0, 0, 0], [0, 0, 0]], np.zeros((0, 2))),
    ([[1, 1, 1], [1, 1, 1]], [[r, c] for r in range(2) for c in range(3)]),
]


def check(model):
    (out,) = model.outputs
    assert (out.name, out.shape, out.dtype_name) == ("coords", (6, 2), "int64")
    for x, want in CASES:
        got = model(np.array(x, np.float32))
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, np.array(want, np.int64).reshape(-1, 2))


def test_compile():
    check(tfaot.compile(WHERE, feeds={"x": (2, 3)}, fetches="coords"))


def test_load(tmp_path):
    check(tfaot.load(shared_library(tmp_path / "where.so", WHERE,
                                    "--feed", "x:2,3", "--fetch", "coords",
                                    "--cpp_class", "t::Where")))
