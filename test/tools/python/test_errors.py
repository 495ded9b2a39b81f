# SPDX-License-Identifier: Apache-2.0
"""Errors are Python exceptions carrying tfaot's messages: compile errors
word for word as `tfaot compile` prints them, inputs the model does not
take, Run()'s run-time errors (through the JIT and a shared library), and
files tfaot.load() cannot use."""
import os

import numpy as np
import pytest

import tfaot
from conftest import (GATHERS, RESHAPE_2, needs_corpus, shared_library,
                      tfaot_command)

RESHAPE_2_PB = os.path.join(RESHAPE_2, "test_reshape_2.pb")


def cli_error(*args):
    """What `tfaot compile` prints for the same mistake (and fails)."""
    code, _, err = tfaot_command("compile", *args,
                                 "--out_function_object", os.devnull)
    assert code != 0
    return err.strip()


def test_missing_graph_file(tmp_path):
    graph = str(tmp_path / "none.pb")
    with pytest.raises(tfaot.CompileError) as e:
        tfaot.compile(graph, fetches="y")
    assert str(e.value) == graph + \
        ": error: cannot read file: No such file or directory"
    assert str(e.value) == cli_error("--graph", graph, "--fetch", "y")


@needs_corpus
def test_unknown_fetch():
    with pytest.raises(tfaot.CompileError) as e:
        tfaot.compile(RESHAPE_2_PB, feeds={"x": (5, 3)}, fetches="nope")
    assert str(e.value) == RESHAPE_2_PB + \
        ": error: fetch 'nope' names no node in the graph"
    assert str(e.value) == cli_error("--graph", RESHAPE_2_PB, "--feed",
                                     "x:5,3", "--fetch", "nope")


@needs_corpus
def test_bad_options():
    with pytest.raises(tfaot.CompileError, match=r"^tfaot.compile\(\): "
                       r"error: --layout must be auto, nhwc or nchw, not "
                       r"'bogus'$"):
        tfaot.compile(RESHAPE_2_PB, feeds="x:5,3", fetches="y",
                      layout="bogus")
    with pytest.raises(tfaot.CompileError, match=r"^unknown option 'lay_out' "
                       r"\(the options: signature, config, feed_values, "):
        tfaot.compile(RESHAPE_2_PB, feeds="x:5,3", fetches="y",
                      lay_out="nhwc")
    with pytest.raises(tfaot.CompileError, match=r"^option 'layout' cannot "
                       r"be int 5$"):
        tfaot.compile(RESHAPE_2_PB, feeds="x:5,3", fetches="y", layout=5)
    with pytest.raises(tfaot.CompileError, match="threads must be >= 0"):
        tfaot.compile(RESHAPE_2_PB, feeds="x:5,3", fetches="y", threads=-1)


@pytest.fixture(scope="module")
def gathers():
    # gather = tf.gather(table, idx), table [4,3] = 0..11, idx int32 [3].
    return tfaot.compile(GATHERS, feeds="idx", fetches="gather")


def test_wrong_inputs(gathers):
    with pytest.raises(tfaot.InputError, match=r"^input 'idx' is int32\[3\], "
                       r"but was given an array of int64\[3\]$"):
        gathers(np.array([0, 1, 2], np.int64))
    with pytest.raises(tfaot.InputError, match=r"^input 'idx' is int32\[3\], "
                       r"but was given shape \[2\]$"):
        gathers(np.array([0, 1], np.int32))
    with pytest.raises(tfaot.InputError, match=r"^input 'idx' is int32\[3\]; "
                       r"float64 values cannot be converted to it$"):
        gathers([0.5, 1, 2])
    with pytest.raises(tfaot.InputError, match=r"^missing input: 'idx'$"):
        gathers()
    with pytest.raises(tfaot.InputError, match=r"^the model has no input "
                       r"named 'index' \(its inputs: 'idx'\)$"):
        gathers(index=[0, 1, 2])
    with pytest.raises(tfaot.InputError, match=r"^input 'idx' is given "
                       r"twice$"):
        gathers([0, 1, 2], idx=[0, 1, 2])
    with pytest.raises(tfaot.InputError, match=r"^2 inputs given, but the "
                       r"model takes 1 \('idx'\)$"):
        gathers([0, 1, 2], [0, 1, 2])
    # InputError is also a ValueError, as NumPy users expect.
    with pytest.raises(ValueError):
        gathers([0, 1])


def check_run_errors(model):
    """Rows 3r, 3r+1, 3r+2 for valid indices; TensorFlow's message naming
    the node and the first bad index otherwise, and the model stays
    usable."""
    np.testing.assert_array_equal(
        model(np.array([0, 3, 1], np.int32)),
        [[0, 1, 2], [9, 10, 11], [3, 4, 5]])
    with pytest.raises(tfaot.RunError, match=r"^node 'gather': indices\[1\] "
                       r"= 4 is not in \[0, 4\)$"):
        model(np.array([0, 4, 1], np.int32))
    with pytest.raises(tfaot.RunError, match=r"^node 'gather': indices\[0\] "
                       r"= -1 is not in \[0, 4\)$"):
        model([-1, 0, 9])
    np.testing.assert_array_equal(model([2, 2, 0]),
                                  [[6, 7, 8], [6, 7, 8], [0, 1, 2]])


def test_run_error_in_process(gathers):
    check_run_errors(gathers)


def test_run_error_from_shared_library(tmp_path):
    check_run_errors(tfaot.load(shared_library(
        tmp_path / "gathers.so", GATHERS, "--feed", "idx", "--fetch",
        "gather", "--cpp_class", "t::Gathers")))


def test_load_errors(tmp_path):
    missing = str(tmp_path / "none.so")
    with pytest.raises(tfaot.LoadError, match="^" + missing +
                       ": error: cannot load the model library: "):
        tfaot.load(missing)
    text = tmp_path / "text.so"
    text.write_text("not a library\n")
    with pytest.raises(tfaot.LoadError, match="^" + str(text) +
                       ": error: cannot load the model library: "):
        tfaot.load(str(text))
    # A real shared library that holds no model: NumPy's own extension.
    numpy_library = np.core._multiarray_umath.__file__
    with pytest.raises(tfaot.LoadError, match=r": error: not a tfaot model "
                       r"library \(it defines no tfaot_model_info; make one "
                       r"with tfaot compile --out_shared_library\)$"):
        tfaot.load(numpy_library)
    # LoadError is an OSError too.
    with pytest.raises(OSError):
        tfaot.load(missing)
