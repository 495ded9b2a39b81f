# SPDX-License-Identifier: Apache-2.0
"""The exceptions the tfaot package raises; each carries tfaot's message."""


class Error(Exception):
    """Base of every tfaot error."""


class CompileError(Error):
    """tfaot.compile() or tfaot.bench() failed: a bad graph file, an unknown
    feed or fetch, an unsupported op, a bad option. The message is what
    `tfaot compile` prints ("<file>: error: ...")."""


class LoadError(Error, OSError):
    """tfaot.load() could not open a model library."""


class InputError(Error, ValueError):
    """A model was called with inputs it does not take: a missing, unknown
    or repeated name, or an array of the wrong dtype or shape."""


class RunError(Error):
    """The compiled code reported bad data while running (an index out of
    range, a corrupt JPEG): Run()'s error_msg()."""


class CompileWarning(UserWarning):
    """What the compiler warned about while compiling a model."""
