#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a frozen GraphDef (pbtxt) around one fused BlockLSTM (TF1's
tf.contrib.rnn.LSTMBlockFusedCell: forget_bias 1, cell_clip 0.5, no
peepholes) or BlockLSTMV2 (Keras' gate order i, f, ci, o, no forget bias,
no clip, here with peepholes): x is time-major float32 [?, 3, 3],
seq_len_max an int64 scalar, the initial states zeros; the weights are
rnn_reference.py's (cells lstm_block and lstm_block_v2).

usage: make_block_lstm.py BlockLSTM|BlockLSTMV2 > graph.pbtxt
"""
import sys

import numpy as np

import graphdef_text as g
import rnn_reference as ref

B, D, H = ref.BATCH, ref.INPUT, ref.HIDDEN


def build(op):
    v2 = op == "BlockLSTMV2"
    cell = "lstm_block_v2" if v2 else "lstm_block"
    graph = g.Graph("""
A %s over time-major x (written by make_block_lstm.py %s; the weights
and the reference are rnn_reference.py's, cell %s).
""" % (op, op, cell))
    graph.node("x", "Placeholder", dtype=g.FLOAT, shape=g.Shape((-1, B, D)))
    graph.node("seq_len_max", "Placeholder", dtype=g.INT64, shape=g.Shape(()))
    w = ref.weights(cell)
    scope = "lstm_fused_cell"
    for name, value in w.items():
        graph.const("%s/%s" % (scope, name), value)
    diag = []
    for k, name in enumerate(("w_i_diag", "w_f_diag", "w_o_diag")):
        if name in w:
            diag.append("%s/%s" % (scope, name))
        else:
            diag.append(graph.const("%s/zeros_%d" % (scope, k),
                                    np.zeros(H, np.float32)))
    state = graph.const(scope + "/zeros", np.zeros((B, H), np.float32))
    attrs = dict(T=g.FLOAT, cell_clip=0.0 if v2 else ref.CELL_CLIP,
                 use_peephole=v2)
    if not v2:
        attrs["forget_bias"] = ref.FORGET_BIAS
    graph.node(scope + "/" + op, op,
               ["seq_len_max", "x", state, state, scope + "/kernel"] + diag +
               [scope + "/bias"], **attrs)
    return graph.text()


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("BlockLSTM", "BlockLSTMV2"):
        sys.exit(__doc__)
    sys.stdout.write(build(sys.argv[1]))
