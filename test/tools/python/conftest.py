# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the tfaot Python package's tests (CMakeLists.txt here runs
them under ctest with the package on PYTHONPATH and these variables set):
TFAOT, the tfaot binary of the same build; TFAOT_CORPUS_DIR, the shared
corpus with TensorFlow's expected outputs."""
import os
import subprocess

import pytest

from idx import read_idx  # noqa: F401 (the tests import it from here)

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.environ.get("TFAOT_CORPUS_DIR", "")
UTENSOR_OPS = os.path.join(CORPUS, "frozen", "utensor", "ops")
RESHAPE_2 = os.path.join(UTENSOR_OPS, "reshape_2")
SIMPLE_MNIST = os.path.join(CORPUS, "frozen", "utensor", "models",
                            "simple_mnist.pb")
# A Const table [4,3] of 0..11 gathered by fed indices (the run-time index
# checks' test graph, test/backends/cpu/run-index-checks.test).
GATHERS = os.path.join(TESTS, "backends", "cpu", "Inputs", "gathers.pbtxt")

needs_corpus = pytest.mark.skipif(
    not os.path.isdir(UTENSOR_OPS),
    reason="the corpus is not at TFAOT_CORPUS_DIR=%r" % CORPUS)

def tfaot_command(*args):
    """Runs the tfaot binary; returns (exit code, stdout, stderr)."""
    binary = os.environ.get("TFAOT", "tfaot")
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def shared_library(path, graph, *flags):
    """`tfaot compile ... --out_shared_library path`; returns path."""
    code, _, err = tfaot_command("compile", "--graph", graph, *flags,
                                 "--out_shared_library", str(path))
    assert code == 0, err
    return str(path)
