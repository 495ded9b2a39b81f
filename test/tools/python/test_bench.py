# SPDX-License-Identifier: Apache-2.0
"""tfaot.bench(): `tfaot bench --json`'s figures as a dict. Only what
holds on any machine is checked (counts, consistency), no timings."""
import pytest

import tfaot
from conftest import SIMPLE_MNIST, needs_corpus

pytestmark = needs_corpus


def test_figures_per_batch():
    figures = tfaot.bench(SIMPLE_MNIST, feeds="x:1,784", fetches="y_pred",
                          batches=[1, 3], min_iters=3, min_time=0)
    assert figures["graph"] == SIMPLE_MNIST
    assert figures["threads"] == 1
    assert [p["batch"] for p in figures["points"]] == [1, 3]
    for p in figures["points"]:
        assert p["iterations"] >= 3
        assert 0 < p["min_ms"] <= p["median_ms"] <= p["p90_ms"]
        assert p["items_per_second"] == pytest.approx(
            p["batch"] * 1000 / p["median_ms"])
        assert p["compile_seconds"] > 0


def test_bad_graph():
    with pytest.raises(tfaot.CompileError, match="no-such.pb: error: "):
        tfaot.bench("no-such.pb", feeds="x:1,784", fetches="y_pred")
