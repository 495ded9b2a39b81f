#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the frozen GraphDef (pbtxt) TF1's tf.nn.dynamic_rnn builds for a
BasicRNNCell, LSTMCell or GRUCell, node for node as rnn.py's dynamic_rnn
and _dynamic_rnn_loop emit it (names included): the batch-major input
transposed to time-major, a TensorArrayV3 of inputs filled by
TensorArrayScatterV3, the "rnn/while" frame whose loop variables are the
iteration counter (maximum_iterations), the time, the output TensorArray's
flow and the state, its cond (counter < time_steps) && (time < loop_bound),
the cell in the body reading its input with TensorArrayReadV3 and writing
its output with TensorArrayWriteV3, and TensorArrayGatherV3 plus the
transpose back after the loop. With --seq the graph takes sequence_length
as TF1 does: CheckSeqLen behind an Assert, the loop bound
Minimum(time_steps, Maximum(1, Max(sequence_length))), and in the body the
Selects that zero outputs and keep the state at and past each sequence's
length. The weights are rnn_reference.py's; x is float32 [3, ?, 3].

The cell may also be one of the fused ops (tf.contrib.rnn's LSTMBlockCell,
with and without peepholes, and GRUBlockCell), one node in the body.

With --static T it writes tf.nn.static_rnn of the same cell instead: the
cell unrolled over T steps (for comparing the two forms).

usage: make_dynamic_rnn.py CELL [--seq | --static T] [--sizes B,D,H] > graph.pbtxt
  CELL: rnn, lstm, gru, lstm_block, lstm_block_peep, gru_block
"""
import sys

import numpy as np

import graphdef_text as g
import rnn_reference as ref

FRAME = "rnn/while/while_context"
B, D, H = ref.BATCH, ref.INPUT, ref.HIDDEN
CELL_SCOPE = {"rnn": "basic_rnn_cell", "lstm": "lstm_cell", "gru": "gru_cell",
              "lstm_block": "lstm_cell", "lstm_block_peep": "lstm_cell",
              "gru_block": "gru_cell"}
ZERO_STATE = {"rnn": "BasicRNNCellZeroState", "lstm": "LSTMCellZeroState",
              "gru": "GRUCellZeroState", "lstm_block": "LSTMBlockCellZeroState",
              "lstm_block_peep": "LSTMBlockCellZeroState",
              "gru_block": "GRUBlockCellZeroState"}
CELL_CLASS = {"rnn": "tf.nn.rnn_cell.BasicRNNCell(%d)",
              "lstm": "tf.nn.rnn_cell.LSTMCell(%d)",
              "gru": "tf.nn.rnn_cell.GRUCell(%d)",
              "lstm_block": "tf.contrib.rnn.LSTMBlockCell(%d, cell_clip=0.5)",
              "lstm_block_peep": "tf.contrib.rnn.LSTMBlockCell(%d, cell_clip=0.5, "
                                 "use_peephole=True)",
              "gru_block": "tf.contrib.rnn.GRUBlockCellV2(%d)"}


def enter(graph, name, source, dtype, constant):
    return graph.node(name, "Enter", [source], T=dtype, frame_name=FRAME,
                      is_constant=constant, parallel_iterations=32)


def strided_slice(graph, name, source, begin, end):
    graph.i32(name + "/stack", [begin])
    graph.i32(name + "/stack_1", [end])
    graph.i32(name + "/stack_2", [1])
    return graph.node(name, "StridedSlice",
                      [source, name + "/stack", name + "/stack_1",
                       name + "/stack_2"],
                      T=g.INT32, Index=g.INT32, begin_mask=0, end_mask=0,
                      ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=1)


def transpose_batch_time(graph, suffix, source):
    """rnn.py's _transpose_batch_time: perm = concat([1, 0], range(2, rank))."""
    graph.i32("rnn/Rank" + suffix, 3)
    graph.i32("rnn/range%s/start" % suffix, 2)
    graph.i32("rnn/range%s/delta" % suffix, 1)
    graph.node("rnn/range" + suffix, "Range",
               ["rnn/range%s/start" % suffix, "rnn/Rank" + suffix,
                "rnn/range%s/delta" % suffix], Tidx=g.INT32)
    concat = "rnn/concat" + ("_2" if suffix else "")
    graph.i32(concat + "/values_0", [1, 0])
    graph.i32(concat + "/axis", 0)
    graph.node(concat, "ConcatV2",
               [concat + "/values_0", "rnn/range" + suffix, concat + "/axis"],
               N=2, T=g.INT32, Tidx=g.INT32)
    return graph.node("rnn/transpose" + suffix, "Transpose", [source, concat],
                      T=g.FLOAT, Tperm=g.INT32)


def zero_state(graph, cell):
    """cell.zero_state(B): one Fill of [B, H] per state tensor."""
    scope = "rnn/" + ZERO_STATE[cell]
    names = []
    for k in range(2 if cell.startswith("lstm") else 1):
        suffix = "_%d" % k if k else ""
        c0, c1 = "%s/Const%s" % (scope, "_%d" % (2 * k) if k else ""), \
            "%s/Const_%d" % (scope, 2 * k + 1)
        graph.i32(c0, [B])
        graph.i32(c1, [H])
        graph.i32("%s/concat%s/axis" % (scope, suffix), 0)
        graph.node("%s/concat%s" % (scope, suffix), "ConcatV2",
                   [c0, c1, "%s/concat%s/axis" % (scope, suffix)],
                   N=2, T=g.INT32, Tidx=g.INT32)
        graph.f32("%s/zeros%s/Const" % (scope, suffix), 0.0)
        names.append(graph.node(
            "%s/zeros%s" % (scope, suffix), "Fill",
            ["%s/concat%s" % (scope, suffix), "%s/zeros%s/Const" % (scope, suffix)],
            T=g.FLOAT, index_type=g.INT32))
    return names


def variables(graph, cell):
    """The frozen variables: Const plus the Identity 'read' of each."""
    reads = {}
    for suffix, value in ref.weights(cell).items():
        name = "rnn/%s/%s" % (CELL_SCOPE[cell], suffix)
        graph.const(name, value)
        reads[suffix] = graph.node(name + "/read", "Identity", [name],
                                   T=g.FLOAT)
    return reads


def body_const(graph, name, value):
    """A constant of the loop body: tied to the frame by a control edge from
    its pivot, as WhileContext.AddOp does."""
    return graph.const(name, value, ["^rnn/while/Identity"])


class CellContext:
    """Where a cell is built: in the while body (weights enter the frame
    through Enter, constants hang on its pivot by a control edge, as
    WhileContext.AddOp does) or unrolled at the top level (static_rnn)."""

    def __init__(self, scope, in_loop):
        self.scope, self.in_loop = scope, in_loop
        self.pivot = ["^rnn/while/Identity"] if in_loop else []

    def weight(self, graph, name, source):
        return enter(graph, name, source, g.FLOAT, True) if self.in_loop else source


def matmul_bias(graph, ctx, suffix, concat_inputs, kernel, bias):
    scope = ctx.scope
    graph.i32("%s/concat%s/axis" % (scope, suffix), 1, ctx.pivot)
    graph.node("%s/concat%s" % (scope, suffix), "ConcatV2",
               concat_inputs + ["%s/concat%s/axis" % (scope, suffix)],
               N=2, T=g.FLOAT, Tidx=g.INT32)
    kernel = ctx.weight(graph, "%s/MatMul%s/Enter" % (scope, suffix), kernel)
    graph.node("%s/MatMul%s" % (scope, suffix), "MatMul",
               ["%s/concat%s" % (scope, suffix), kernel],
               T=g.FLOAT, transpose_a=False, transpose_b=False)
    bias = ctx.weight(graph, "%s/BiasAdd%s/Enter" % (scope, suffix), bias)
    return graph.node("%s/BiasAdd%s" % (scope, suffix), "BiasAdd",
                      ["%s/MatMul%s" % (scope, suffix), bias],
                      T=g.FLOAT, data_format="NHWC")


def cell_body(graph, cell, reads, x, state, ctx):
    """The cell inside the loop: (output, new state names)."""
    scope = ctx.scope
    f = dict(T=g.FLOAT)
    if cell == "rnn":
        pre = matmul_bias(graph, ctx, "", [x, state[0]], reads["kernel"],
                          reads["bias"])
        out = graph.node(scope + "/Tanh", "Tanh", [pre], **f)
        return out, [out]
    if cell == "lstm":
        c, h = state
        pre = matmul_bias(graph, ctx, "", [x, h], reads["kernel"],
                          reads["bias"])
        graph.i32(scope + "/split/split_dim", 1, ctx.pivot)
        split = graph.node(scope + "/split", "Split",
                           [scope + "/split/split_dim", pre], num_split=4, **f)
        graph.f32(scope + "/add/y", ref.FORGET_BIAS, ctx.pivot)
        graph.node(scope + "/add", "Add", [split + ":2", scope + "/add/y"], **f)
        graph.node(scope + "/Sigmoid", "Sigmoid", [scope + "/add"], **f)
        graph.node(scope + "/mul", "Mul", [scope + "/Sigmoid", c], **f)
        graph.node(scope + "/Sigmoid_1", "Sigmoid", [split], **f)
        graph.node(scope + "/Tanh", "Tanh", [split + ":1"], **f)
        graph.node(scope + "/mul_1", "Mul", [scope + "/Sigmoid_1", scope + "/Tanh"], **f)
        new_c = graph.node(scope + "/add_1", "AddV2",
                           [scope + "/mul", scope + "/mul_1"], **f)
        graph.node(scope + "/Sigmoid_2", "Sigmoid", [split + ":3"], **f)
        graph.node(scope + "/Tanh_1", "Tanh", [new_c], **f)
        new_h = graph.node(scope + "/mul_2", "Mul",
                           [scope + "/Sigmoid_2", scope + "/Tanh_1"], **f)
        return new_h, [new_c, new_h]
    if cell == "gru":
        (h,) = state
        pre = matmul_bias(graph, ctx, "", [x, h], reads["gates/kernel"],
                          reads["gates/bias"])
        graph.node(scope + "/Sigmoid", "Sigmoid", [pre], **f)
        graph.i32(scope + "/split/split_dim", 1, ctx.pivot)
        split = graph.node(scope + "/split", "Split",
                           [scope + "/split/split_dim", scope + "/Sigmoid"],
                           num_split=2, **f)
        graph.node(scope + "/mul", "Mul", [split, h], **f)
        cand = matmul_bias(graph, ctx, "_1", [x, scope + "/mul"],
                           reads["candidate/kernel"], reads["candidate/bias"])
        graph.node(scope + "/Tanh", "Tanh", [cand], **f)
        graph.node(scope + "/mul_1", "Mul", [split + ":1", h], **f)
        graph.f32(scope + "/sub/x", 1.0, ctx.pivot)
        graph.node(scope + "/sub", "Sub", [scope + "/sub/x", split + ":1"], **f)
        graph.node(scope + "/mul_2", "Mul", [scope + "/sub", scope + "/Tanh"], **f)
        new_h = graph.node(scope + "/add", "AddV2",
                           [scope + "/mul_1", scope + "/mul_2"], **f)
        return new_h, [new_h]
    if cell in ("lstm_block", "lstm_block_peep"):
        # LSTMBlockCell(x, cs_prev, h_prev, w, wci, wcf, wco, b) -> i, cs,
        # f, o, ci, co, h; without peepholes the diagonals are zeros.
        c, h = state
        diag = []
        for k, name in enumerate(("w_i_diag", "w_f_diag", "w_o_diag")):
            if name in reads:
                diag.append(ctx.weight(graph, "%s/LSTMBlockCell/Enter_%d" % (scope, k + 2),
                                       reads[name]))
            else:
                diag.append(graph.const("%s/zeros%s" % (scope, "_%d" % k if k else ""),
                                        np.zeros(H, np.float32), ctx.pivot))
        kernel = ctx.weight(graph, scope + "/LSTMBlockCell/Enter", reads["kernel"])
        bias = ctx.weight(graph, scope + "/LSTMBlockCell/Enter_1", reads["bias"])
        block = graph.node(
            scope + "/LSTMBlockCell", "LSTMBlockCell",
            [x, c, h, kernel] + diag + [bias],
            T=g.FLOAT, forget_bias=ref.FORGET_BIAS, cell_clip=ref.CELL_CLIP,
            use_peephole=cell == "lstm_block_peep")
        return block + ":6", [block + ":1", block + ":6"]
    if cell == "gru_block":
        # GRUBlockCell(x, h_prev, w_ru, w_c, b_ru, b_c) -> r, u, c, h.
        (h,) = state
        weights = [ctx.weight(graph, "%s/GRUBlockCell/Enter%s" %
                              (scope, "_%d" % k if k else ""), reads[name])
                   for k, name in enumerate(["w_ru", "w_c", "b_ru", "b_c"])]
        block = graph.node(scope + "/GRUBlockCell", "GRUBlockCell",
                           [x, h] + weights, T=g.FLOAT)
        return block + ":3", [block + ":3"]
    raise ValueError(cell)


def build(cell, with_seq):
    graph = g.Graph("""
tf.nn.dynamic_rnn(%s, x%s, dtype=tf.float32)
as TF1's rnn.py builds it, frozen (written by make_dynamic_rnn.py %s%s;
the weights and the reference are rnn_reference.py's). x is float32 [%d, ?, %d].
""" % (CELL_CLASS[cell] % H, ", sequence_length=seq" if with_seq else "", cell,
       " --seq" if with_seq else "", B, D))
    graph.node("x", "Placeholder", dtype=g.FLOAT, shape=g.Shape((B, -1, D)))
    if with_seq:
        graph.node("seq", "Placeholder", dtype=g.INT32, shape=g.Shape((B,)))
    reads = variables(graph, cell)
    transposed = transpose_batch_time(graph, "", "x")
    seq_len = None
    if with_seq:
        graph.node("rnn/sequence_length", "Identity", ["seq"], T=g.INT32)
        graph.node("rnn/Shape", "Shape", ["rnn/sequence_length"], T=g.INT32,
                   out_type=g.INT32)
        graph.i32("rnn/stack", [B])
        graph.node("rnn/Equal", "Equal", ["rnn/Shape", "rnn/stack"], T=g.INT32)
        graph.i32("rnn/Const", [0])
        graph.node("rnn/All", "All", ["rnn/Equal", "rnn/Const"], Tidx=g.INT32,
                   keep_dims=False)
        graph.string_const("rnn/Assert/Assert/data_0",
                           "Expected shape for Tensor rnn/sequence_length:0 is ")
        graph.string_const("rnn/Assert/Assert/data_2", " but saw shape: ")
        graph.node("rnn/Assert/Assert", "Assert",
                   ["rnn/All", "rnn/Assert/Assert/data_0", "rnn/stack",
                    "rnn/Assert/Assert/data_2", "rnn/Shape"],
                   T=[g.STRING, g.INT32, g.STRING, g.INT32], summarize=3)
        seq_len = graph.node("rnn/CheckSeqLen", "Identity",
                             ["rnn/sequence_length", "^rnn/Assert/Assert"],
                             T=g.INT32)
    init_state = zero_state(graph, cell)
    # _dynamic_rnn_loop.
    graph.node("rnn/Shape_1", "Shape", [transposed], T=g.FLOAT, out_type=g.INT32)
    time_steps = strided_slice(graph, "rnn/strided_slice", "rnn/Shape_1", 0, 1)
    batch = strided_slice(graph, "rnn/strided_slice_1", "rnn/Shape_1", 1, 2)
    graph.i32("rnn/ExpandDims/dim", 0)
    graph.node("rnn/ExpandDims", "ExpandDims", [batch, "rnn/ExpandDims/dim"],
               T=g.INT32, Tdim=g.INT32)
    graph.i32("rnn/Const_1", [H])
    graph.i32("rnn/concat_1/axis", 0)
    graph.node("rnn/concat_1", "ConcatV2",
               ["rnn/ExpandDims", "rnn/Const_1", "rnn/concat_1/axis"],
               N=2, T=g.INT32, Tidx=g.INT32)
    graph.f32("rnn/zeros/Const", 0.0)
    zero_output = graph.node("rnn/zeros", "Fill", ["rnn/concat_1", "rnn/zeros/Const"],
                             T=g.FLOAT, index_type=g.INT32)
    if with_seq:
        graph.i32("rnn/Const_2", [0])
        graph.node("rnn/Min", "Min", [seq_len, "rnn/Const_2"], T=g.INT32,
                   Tidx=g.INT32, keep_dims=False)
        graph.i32("rnn/Const_3", [0])
        max_len = graph.node("rnn/Max", "Max", [seq_len, "rnn/Const_3"],
                             T=g.INT32, Tidx=g.INT32, keep_dims=False)
    else:
        max_len = time_steps
    graph.i32("rnn/time", 0)
    array_attrs = dict(dtype=g.FLOAT, dynamic_size=False, clear_after_read=True,
                       identical_element_shapes=True)
    out_ta = graph.node("rnn/TensorArray", "TensorArrayV3", [time_steps],
                        element_shape=g.Shape((B, H)),
                        tensor_array_name="rnn/dynamic_rnn/output_0",
                        **array_attrs)
    in_ta = graph.node("rnn/TensorArray_1", "TensorArrayV3", [time_steps],
                       element_shape=g.Shape((B, D)),
                       tensor_array_name="rnn/dynamic_rnn/input_0",
                       **array_attrs)
    graph.node("rnn/TensorArrayUnstack/Shape", "Shape", [transposed],
               T=g.FLOAT, out_type=g.INT32)
    count = strided_slice(graph, "rnn/TensorArrayUnstack/strided_slice",
                          "rnn/TensorArrayUnstack/Shape", 0, 1)
    graph.i32("rnn/TensorArrayUnstack/range/start", 0)
    graph.i32("rnn/TensorArrayUnstack/range/delta", 1)
    graph.node("rnn/TensorArrayUnstack/range", "Range",
               ["rnn/TensorArrayUnstack/range/start", count,
                "rnn/TensorArrayUnstack/range/delta"], Tidx=g.INT32)
    scatter = graph.node(
        "rnn/TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3",
        "TensorArrayScatterV3",
        [in_ta, "rnn/TensorArrayUnstack/range", transposed, in_ta + ":1"],
        T=g.FLOAT)
    graph.i32("rnn/Maximum/x", 1)
    graph.node("rnn/Maximum", "Maximum", ["rnn/Maximum/x", max_len], T=g.INT32)
    bound = graph.node("rnn/Minimum", "Minimum", [time_steps, "rnn/Maximum"],
                       T=g.INT32)
    graph.i32("rnn/while/iteration_counter", 0)

    # The loop: counter, time, output flow, state...
    inits = ["rnn/while/iteration_counter", "rnn/time", out_ta + ":1"] + init_state
    types = [g.INT32, g.INT32, g.FLOAT] + [g.FLOAT] * len(init_state)
    n = len(inits)
    sfx = ["" if k == 0 else "_%d" % k for k in range(n)]
    for k in range(n):
        enter(graph, "rnn/while/Enter" + sfx[k], inits[k], types[k], False)
    for k in range(n):
        graph.node("rnn/while/Merge" + sfx[k], "Merge",
                   ["rnn/while/Enter" + sfx[k], "rnn/while/NextIteration" + sfx[k]],
                   T=types[k], N=2)
    enter(graph, "rnn/while/Less/Enter", time_steps, g.INT32, True)
    graph.node("rnn/while/Less", "Less", ["rnn/while/Merge", "rnn/while/Less/Enter"],
               T=g.INT32)
    enter(graph, "rnn/while/Less_1/Enter", bound, g.INT32, True)
    graph.node("rnn/while/Less_1", "Less",
               ["rnn/while/Merge_1", "rnn/while/Less_1/Enter"], T=g.INT32)
    graph.node("rnn/while/LogicalAnd", "LogicalAnd",
               ["rnn/while/Less", "rnn/while/Less_1"])
    graph.node("rnn/while/LoopCond", "LoopCond", ["rnn/while/LogicalAnd"])
    for k in range(n):
        graph.node("rnn/while/Switch" + sfx[k], "Switch",
                   ["rnn/while/Merge" + sfx[k], "rnn/while/LoopCond"],
                   T=types[k])
    for k in range(n):
        graph.node("rnn/while/Identity" + sfx[k], "Identity",
                   ["rnn/while/Switch%s:1" % sfx[k]], T=types[k])
    ident = ["rnn/while/Identity" + s for s in sfx]
    # Body.
    body_const(graph, "rnn/while/add/y", np.array(1, np.int32))
    counter_next = graph.node("rnn/while/add", "AddV2",
                              [ident[0], "rnn/while/add/y"], T=g.INT32)
    enter(graph, "rnn/while/TensorArrayReadV3/Enter", in_ta, g.RESOURCE, True)
    enter(graph, "rnn/while/TensorArrayReadV3/Enter_1", scatter, g.FLOAT, True)
    x_t = graph.node("rnn/while/TensorArrayReadV3", "TensorArrayReadV3",
                     ["rnn/while/TensorArrayReadV3/Enter", ident[1],
                      "rnn/while/TensorArrayReadV3/Enter_1"], dtype=g.FLOAT)
    output, new_state = cell_body(
        graph, cell, reads, x_t, ident[3:],
        CellContext("rnn/while/" + CELL_SCOPE[cell], in_loop=True))
    if with_seq:
        enter(graph, "rnn/while/GreaterEqual/Enter", seq_len, g.INT32, True)
        done = graph.node("rnn/while/GreaterEqual", "GreaterEqual",
                          [ident[1], "rnn/while/GreaterEqual/Enter"], T=g.INT32)
        enter(graph, "rnn/while/Select/Enter", zero_output, g.FLOAT, True)
        output = graph.node("rnn/while/Select", "Select",
                            [done, "rnn/while/Select/Enter", output], T=g.FLOAT)
        new_state = [graph.node("rnn/while/Select_%d" % (k + 1), "Select",
                                [done, ident[3 + k], s], T=g.FLOAT)
                     for k, s in enumerate(new_state)]
    enter(graph, "rnn/while/TensorArrayWrite/TensorArrayWriteV3/Enter", out_ta,
          g.RESOURCE, True)
    flow_next = graph.node(
        "rnn/while/TensorArrayWrite/TensorArrayWriteV3", "TensorArrayWriteV3",
        ["rnn/while/TensorArrayWrite/TensorArrayWriteV3/Enter", ident[1],
         output, ident[2]], T=g.FLOAT)
    body_const(graph, "rnn/while/add_1/y", np.array(1, np.int32))
    time_next = graph.node("rnn/while/add_1", "AddV2",
                           [ident[1], "rnn/while/add_1/y"], T=g.INT32)
    nexts = [counter_next, time_next, flow_next] + new_state
    for k in range(n):
        graph.node("rnn/while/NextIteration" + sfx[k], "NextIteration",
                   [nexts[k]], T=types[k])
    for k in range(n):
        graph.node("rnn/while/Exit" + sfx[k], "Exit",
                   ["rnn/while/Switch" + sfx[k]], T=types[k])
    # After the loop: stack the outputs, back to batch-major.
    graph.node("rnn/TensorArrayStack/TensorArraySizeV3", "TensorArraySizeV3",
               [out_ta, "rnn/while/Exit_2"])
    graph.i32("rnn/TensorArrayStack/range/start", 0)
    graph.i32("rnn/TensorArrayStack/range/delta", 1)
    graph.node("rnn/TensorArrayStack/range", "Range",
               ["rnn/TensorArrayStack/range/start",
                "rnn/TensorArrayStack/TensorArraySizeV3",
                "rnn/TensorArrayStack/range/delta"], Tidx=g.INT32)
    graph.node("rnn/TensorArrayStack/TensorArrayGatherV3", "TensorArrayGatherV3",
               [out_ta, "rnn/TensorArrayStack/range", "rnn/while/Exit_2"],
               dtype=g.FLOAT, element_shape=g.Shape((B, H)))
    transpose_batch_time(graph, "_1", "rnn/TensorArrayStack/TensorArrayGatherV3")
    return graph.text()


def build_static(cell, time_steps):
    """tf.nn.static_rnn(cell, tf.unstack(x, axis=1)) with its outputs stacked
    back to [B, T, H] ("stack") and its final state named final_state_<k>:
    the cell unrolled, one copy per step."""
    graph = g.Graph("""
outputs, state = tf.nn.static_rnn(%s, tf.unstack(x, axis=1),
dtype=tf.float32); tf.stack(outputs, axis=1) (written by make_dynamic_rnn.py
%s --static %d; the weights and the reference are rnn_reference.py's). x is
float32 [%d, %d, %d].
""" % (CELL_CLASS[cell] % H, cell, time_steps, B, time_steps, D))
    graph.node("x", "Placeholder", dtype=g.FLOAT,
               shape=g.Shape((B, time_steps, D)))
    reads = variables(graph, cell)
    state = zero_state(graph, cell)
    graph.node("unstack", "Unpack", ["x"], T=g.FLOAT, num=time_steps, axis=1)
    outputs = []
    for t in range(time_steps):
        ctx = CellContext("rnn/%s%s" % (CELL_SCOPE[cell], "_%d" % t if t else ""),
                          in_loop=False)
        output, state = cell_body(graph, cell, reads, "unstack:%d" % t, state, ctx)
        outputs.append(output)
    graph.node("stack", "Pack", outputs, T=g.FLOAT, N=time_steps, axis=1)
    for k, s in enumerate(state):
        graph.node("final_state_%d" % k, "Identity", [s], T=g.FLOAT)
    return graph.text()


def set_sizes(text):
    """--sizes B,D,H: other sizes than the tests' (for benchmarks; the
    weights are then still rnn_reference.py's deterministic ones)."""
    global B, D, H
    B, D, H = (int(v) for v in text.split(","))
    ref.BATCH, ref.INPUT, ref.HIDDEN = B, D, H


if __name__ == "__main__":
    if "--sizes" in sys.argv:
        at = sys.argv.index("--sizes")
        set_sizes(sys.argv[at + 1])
        del sys.argv[at:at + 2]
    if len(sys.argv) < 2 or sys.argv[1] not in CELL_SCOPE:
        sys.exit(__doc__)
    if sys.argv[2:3] == ["--static"]:
        sys.stdout.write(build_static(sys.argv[1], int(sys.argv[3])))
    else:
        sys.stdout.write(build(sys.argv[1], "--seq" in sys.argv[2:]))
