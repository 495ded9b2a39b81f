# SPDX-License-Identifier: Apache-2.0
"""tfaot.compile() and tfaot.bench(): the compiler and its JIT in this
process, through the extension module tfaot._tfaot (tools/python/
extension.cpp). The object is the one `tfaot compile` writes for the same
graph and options, so the numbers are the linked program's."""
import json
import os
import warnings

from .errors import CompileError, CompileWarning, Error
from .model import Model


def _extension():
    try:
        from . import _tfaot
    except ImportError as e:
        raise Error("tfaot.compile() and tfaot.bench() need the extension "
                    "module tfaot._tfaot, which this installation lacks or "
                    "cannot load (%s); build tfaot with pybind11-dev "
                    "installed (TFAOT_PYTHON=ON). tfaot.load() works "
                    "without it." % e) from e
    return _tfaot


def _feed_specs(feeds):
    """--feed values: None (the graph's placeholders), a spec string
    ("x:1,784:float32"), a list of them, or a dict of name -> shape (a
    sequence of ints; None: the graph's own)."""
    if feeds is None:
        return []
    if isinstance(feeds, str):
        return [feeds]
    if isinstance(feeds, dict):
        specs = []
        for name, shape in feeds.items():
            if shape is None:
                specs.append(name)
            elif isinstance(shape, str):
                specs.append("%s:%s" % (name, shape))
            else:
                specs.append("%s:%s" % (name, ",".join(str(int(d))
                                                      for d in shape)))
        return specs
    return [str(spec) for spec in feeds]


def _fetch_specs(fetches):
    if fetches is None:
        return []
    if isinstance(fetches, str):
        return [fetches]
    return [str(spec) for spec in fetches]


def _options(options):
    """The compile options as the extension takes them: feed_values may be
    a dict of name -> value(s), like the --feed_value flags."""
    options = dict(options)
    values = options.get("feed_values")
    if isinstance(values, dict):
        options["feed_values"] = [
            "%s=%s" % (name, ",".join(str(v) for v in
                                      (value if isinstance(value, (list, tuple))
                                       else [value])))
            for name, value in values.items()]
    return options


def compile(graph, feeds=None, fetches=None, *, threads=1, **options):
    """Compiles `graph` (a GraphDef .pb/.pbtxt, a TF.js model.json or a
    SavedModel directory) as `tfaot compile` would and returns it as a
    callable tfaot.Model running in this process.

    feeds, fetches: as --feed and --fetch (see _feed_specs); threads: the
    threads each call uses (0: one per hardware thread). Other keyword
    arguments are compile flags by name (layout="nhwc", target_cpu="native",
    feed_values={"scale": 1.5}, quantize="int8", calibration=DIR, ...).
    Raises CompileError with tfaot's messages; warnings become
    CompileWarning."""
    session, messages = _extension().compile(
        os.fspath(graph), _feed_specs(feeds), _fetch_specs(fetches),
        _options(options), threads)
    if session is None:
        raise CompileError(messages.strip())
    if messages.strip():
        warnings.warn(messages.strip(), CompileWarning, stacklevel=2)
    return Model(session, os.fspath(graph))


def bench(graph, feeds=None, fetches=None, *, batches=(), min_iters=10,
          min_time=1.0, threads=1, seed=0, **options):
    """What `tfaot bench --json` measures and prints, as a dict: "graph",
    "target_cpu", "threads" and "points", one per batch size (the feed
    shapes as given when `batches` is empty) with "batch", "iterations",
    "median_ms", "p90_ms", "min_ms", "items_per_second", "arena_bytes" and
    "compile_seconds". Inputs are random (seed `seed`), each batch is timed
    for at least `min_iters` runs and `min_time` seconds. Options as for
    compile(); raises CompileError."""
    report, messages = _extension().bench(
        os.fspath(graph), _feed_specs(feeds), _fetch_specs(fetches),
        _options(options), [int(b) for b in batches], int(min_iters),
        float(min_time), int(threads), int(seed))
    if report is None:
        raise CompileError(messages.strip())
    if messages.strip():
        warnings.warn(messages.strip(), CompileWarning, stacklevel=2)
    return json.loads(report)
