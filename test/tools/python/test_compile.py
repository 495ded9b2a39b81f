# SPDX-License-Identifier: Apache-2.0
"""tfaot.compile(): a model compiled and run in this process gives
TensorFlow's numbers, and the same bytes as `tfaot run` (which
tfaot-run-matches-linked.test holds equal to the linked C++ program's)."""
import os

import numpy as np
import pytest

import tfaot
from conftest import (RESHAPE_2, SIMPLE_MNIST, needs_corpus, read_idx,
                      tfaot_command)

pytestmark = needs_corpus


@pytest.fixture(scope="module")
def reshape_2():
    return tfaot.compile(os.path.join(RESHAPE_2, "test_reshape_2.pb"),
                         feeds={"x": (5, 3)}, fetches="y")


def test_reshape_2_matches_tensorflow(reshape_2):
    # y = x . w, x [5,3]: TensorFlow's input and output from the corpus.
    x = read_idx(os.path.join(RESHAPE_2, "input_x.idx"))
    want = read_idx(os.path.join(RESHAPE_2, "output_y.idx"))
    got = reshape_2(x)
    assert got.dtype == np.float32 and got.shape == (5, 1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # By name, and again: each call returns fresh arrays.
    again = reshape_2(x=x)
    np.testing.assert_array_equal(again, got)
    assert again is not got


def test_reshape_2_by_hand(reshape_2):
    # With x the identity rows e0, e1, e2 (and two zero rows), y holds the
    # weights w [3,1] themselves: w_0.idx from the corpus.
    w = read_idx(os.path.join(RESHAPE_2, "w_0.idx"))
    x = np.zeros((5, 3), np.float32)
    x[0, 0] = x[1, 1] = x[2, 2] = 1
    np.testing.assert_array_equal(reshape_2(x)[:3, 0], w.reshape(3))
    np.testing.assert_array_equal(reshape_2(x)[3:], np.zeros((2, 1)))


def test_inputs_and_outputs(reshape_2):
    (x,), (y,) = reshape_2.inputs, reshape_2.outputs
    assert (x.name, x.shape, x.dtype, x.dtype_name) == \
        ("x", (5, 3), np.dtype(np.float32), "float32")
    assert (y.name, y.shape, y.dtype, y.dtype_name) == \
        ("y", (5, 1), np.dtype(np.float32), "float32")
    assert str(x) == "x float32[5,3]"


def test_lists_are_converted(reshape_2):
    x = read_idx(os.path.join(RESHAPE_2, "input_x.idx"))
    np.testing.assert_array_equal(reshape_2(x.tolist()), reshape_2(x))


def test_mnist_equals_tfaot_run(tmp_path):
    # simple_mnist at batch 4 with two fetches: the class and the logits.
    x = np.random.default_rng(3).uniform(-1, 1, (4, 784)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    code, _, err = tfaot_command(
        "run", "--graph", SIMPLE_MNIST, "--feed", "x:4,784",
        "--fetch", "y_pred", "--fetch", "OuputLayer/logits",
        "--input", "x=%s" % (tmp_path / "x.npy"),
        "--output_dir", str(tmp_path))
    assert code == 0, err
    model = tfaot.compile(SIMPLE_MNIST, feeds=["x:4,784"],
                          fetches=["y_pred", "OuputLayer/logits"])
    assert [o.name for o in model.outputs] == ["y_pred", "OuputLayer/logits"]
    assert model.outputs[0].dtype == np.int64
    classes, logits = model(x)
    np.testing.assert_array_equal(classes,
                                  np.load(tmp_path / "y_pred.npy"))
    np.testing.assert_array_equal(
        logits, np.load(tmp_path / "OuputLayer_logits.npy"))
    np.testing.assert_array_equal(classes, np.argmax(logits, axis=1))


def test_threads_give_the_same_bytes():
    x = np.random.default_rng(5).uniform(-1, 1, (4, 784)).astype(np.float32)
    one = tfaot.compile(SIMPLE_MNIST, feeds={"x": (4, 784)},
                        fetches="OuputLayer/logits")
    two = tfaot.compile(SIMPLE_MNIST, feeds={"x": (4, 784)},
                        fetches="OuputLayer/logits", threads=2)
    np.testing.assert_array_equal(one(x), two(x))
