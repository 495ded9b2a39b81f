# SPDX-License-Identifier: Apache-2.0
"""tfaot.load(): shared libraries made by `tfaot compile
--out_shared_library`, run through the C API with ctypes."""
import os

import numpy as np
import pytest

import tfaot
from conftest import (RESHAPE_2, SIMPLE_MNIST, UTENSOR_OPS, needs_corpus,
                      read_idx, shared_library)

pytestmark = needs_corpus


def test_reshape_2_matches_tensorflow(tmp_path):
    path = shared_library(tmp_path / "reshape2.so",
                          os.path.join(RESHAPE_2, "test_reshape_2.pb"),
                          "--feed", "x:5,3", "--fetch", "y",
                          "--cpp_class", "a::Reshape2")
    model = tfaot.load(path)
    assert [str(i) for i in model.inputs] == ["x float32[5,3]"]
    assert [str(o) for o in model.outputs] == ["y float32[5,1]"]
    x = read_idx(os.path.join(RESHAPE_2, "input_x.idx"))
    np.testing.assert_allclose(model(x),
                               read_idx(os.path.join(RESHAPE_2,
                                                     "output_y.idx")),
                               rtol=1e-5, atol=1e-6)


def test_two_libraries_at_once(tmp_path):
    # reshape_2 (x [5,3]) and reshape_3 (x [1,5]): each its own runtime.
    reshape_3_dir = os.path.join(UTENSOR_OPS, "reshape_3")
    two = tfaot.load(shared_library(
        tmp_path / "two.so", os.path.join(RESHAPE_2, "test_reshape_2.pb"),
        "--feed", "x:5,3", "--fetch", "y", "--cpp_class", "a::Reshape2"))
    three = tfaot.load(shared_library(
        tmp_path / "three.so",
        os.path.join(reshape_3_dir, "test_reshape_3.pb"),
        "--feed", "x:1,5", "--fetch", "y", "--cpp_class", "b::Reshape3"))
    for model, folder in ((two, RESHAPE_2), (three, reshape_3_dir)):
        np.testing.assert_allclose(
            model(read_idx(os.path.join(folder, "input_x.idx"))),
            read_idx(os.path.join(folder, "output_y.idx")),
            rtol=1e-5, atol=1e-6)


def test_mnist_equals_compile(tmp_path):
    # The library and the in-process JIT run the same object: same bytes,
    # on one thread and on two.
    flags = ("--feed", "x:4,784", "--fetch", "y_pred",
             "--fetch", "OuputLayer/logits", "--cpp_class", "m::Mnist")
    path = shared_library(tmp_path / "mnist.so", SIMPLE_MNIST, *flags)
    jit = tfaot.compile(SIMPLE_MNIST, feeds="x:4,784",
                        fetches=["y_pred", "OuputLayer/logits"])
    x = np.random.default_rng(7).uniform(-1, 1, (4, 784)).astype(np.float32)
    want_classes, want_logits = jit(x)
    for threads in (1, 2):
        classes, logits = tfaot.load(path, threads=threads)(x)
        np.testing.assert_array_equal(classes, want_classes)
        np.testing.assert_array_equal(logits, want_logits)
