#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The RNN test models: their deterministic weights and inputs, and a NumPy
reference written from the cells' published equations (TF's BasicRNNCell,
LSTMCell, GRUCell; LSTMBlockCell and GRUBlockCell's documented formulas),
independent of the graphs the generators write.

usage:
  rnn_reference.py inputs CELL T OUT_DIR [--seq L0,L1,L2]
      writes x.bin (float32 [B, T, D]) and, with --seq, seq.bin (int32 [B])
  rnn_reference.py check CELL T RESULT_DIR [--seq L0,L1,L2]
      compares RESULT_DIR/result0.bin (the outputs, float32 [B, T, H]) and
      result1.bin, result2.bin (the final state: h for rnn and gru; c then
      h for the LSTMs) with the reference (|run - ref| <= 1e-4 + 1e-4
      |ref|); prints one line per result, exits 1 on a difference
  rnn_reference.py inputs|check CELL T DIR --block SEQ_LEN_MAX
      for BlockLSTM(V2): x.bin is time-major [T, B, D], len.bin the int64
      seq_len_max; result0.bin, result1.bin are its h and cs outputs
CELL is rnn, lstm, gru (dynamic_rnn of BasicRNNCell/LSTMCell/GRUCell),
lstm_block (LSTMBlockCell/BlockLSTM, forget_bias 1, cell_clip 0.5; with
peepholes: lstm_block_peep), lstm_block_v2 (BlockLSTMV2 with peepholes) or
gru_block (GRUBlockCell).
"""
import os
import sys

import numpy as np

BATCH, INPUT, HIDDEN = 3, 3, 4
FORGET_BIAS = 1.0
CELL_CLIP = 0.5  # small enough that the LSTM block tests clip


def uniform(seed, shape, scale=0.6):
    return np.random.RandomState(seed).uniform(-scale, scale, shape).astype(
        np.float32)


def weights(cell):
    """The cell's variables by TF name suffix, as float32 arrays."""
    d, h = INPUT, HIDDEN
    if cell == "rnn":
        return {"kernel": uniform(1, (d + h, h)), "bias": uniform(2, (h,))}
    if cell in ("lstm", "lstm_block", "lstm_block_peep", "lstm_block_v2"):
        w = {"kernel": uniform(3, (d + h, 4 * h)), "bias": uniform(4, (4 * h,))}
        if cell in ("lstm_block_peep", "lstm_block_v2"):
            w.update(w_i_diag=uniform(8, (h,)), w_f_diag=uniform(9, (h,)),
                     w_o_diag=uniform(10, (h,)))
        return w
    if cell == "gru":
        return {"gates/kernel": uniform(5, (d + h, 2 * h)),
                "gates/bias": uniform(6, (2 * h,)),
                "candidate/kernel": uniform(7, (d + h, h)),
                "candidate/bias": uniform(11, (h,))}
    if cell == "gru_block":
        return {"w_ru": uniform(5, (d + h, 2 * h)), "b_ru": uniform(6, (2 * h,)),
                "w_c": uniform(7, (d + h, h)), "b_c": uniform(11, (h,))}
    raise ValueError(cell)


def inputs(time_steps):
    return uniform(100 + time_steps, (BATCH, time_steps, INPUT), 1.0)


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def step(cell, w, x, state):
    """One step: (output, new state tuple)."""
    if cell == "rnn":
        (h,) = state
        h = np.tanh(np.concatenate([x, h], 1) @ w["kernel"] + w["bias"])
        return h, (h,)
    if cell == "lstm":
        # LSTMCell: i, j, f, o = split(W [x, h] + b);
        # c = sigmoid(f + forget_bias) c + sigmoid(i) tanh(j);
        # h = sigmoid(o) tanh(c).
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ w["kernel"] +
                              w["bias"], 4, axis=1)
        c = sigmoid(f + FORGET_BIAS) * c + sigmoid(i) * np.tanh(j)
        h = sigmoid(o) * np.tanh(c)
        return h, (c, h)
    if cell in ("lstm_block", "lstm_block_peep", "lstm_block_v2"):
        # LSTMBlockCell / BlockLSTM: i, ci, f, o = split(W [x, h] + b) (ci:
        # the input block; BlockLSTMV2 orders them i, f, ci, o and has no
        # forget bias and no clip); with peepholes i and f also see c_prev,
        # o the new c; cs = clip(f * c_prev + i * ci, cell_clip);
        # h = o * tanh(cs).
        c, h = state
        v2 = cell == "lstm_block_v2"
        peep = cell != "lstm_block"
        gates = np.split(np.concatenate([x, h], 1) @ w["kernel"] + w["bias"],
                         4, axis=1)
        i, f, ci, o = [gates[k] for k in ((0, 1, 2, 3) if v2 else (0, 2, 1, 3))]
        i = sigmoid(i + (c * w["w_i_diag"] if peep else 0))
        f = sigmoid(f + (0 if v2 else FORGET_BIAS) +
                    (c * w["w_f_diag"] if peep else 0))
        cs = f * c + i * np.tanh(ci)
        if not v2:
            cs = np.clip(cs, -CELL_CLIP, CELL_CLIP)
        o = sigmoid(o + (cs * w["w_o_diag"] if peep else 0))
        h = o * np.tanh(cs)
        return h, (cs, h)
    if cell == "gru_block":
        w = {"gates/kernel": w["w_ru"], "gates/bias": w["b_ru"],
             "candidate/kernel": w["w_c"], "candidate/bias": w["b_c"]}
        cell = "gru"
    if cell == "gru":
        # GRUCell / GRUBlockCell: r, u = sigmoid(W_g [x, h] + b_g);
        # c = tanh(W_c [x, r h] + b_c); h = u h + (1 - u) c.
        (h,) = state
        r, u = np.split(sigmoid(np.concatenate([x, h], 1) @ w["gates/kernel"] +
                                w["gates/bias"]), 2, axis=1)
        c = np.tanh(np.concatenate([x, r * h], 1) @ w["candidate/kernel"] +
                    w["candidate/bias"])
        h = u * h + (1 - u) * c
        return h, (h,)
    raise ValueError(cell)


def run(cell, x, seq=None):
    """dynamic_rnn's results: outputs [B, T, H] (zero at and past a
    sequence's length) and the final state (each sequence's state after its
    last step)."""
    w = weights(cell)
    batch, time_steps, _ = x.shape
    two = cell.startswith("lstm")
    state = tuple(np.zeros((batch, HIDDEN), np.float64)
                  for _ in range(2 if two else 1))
    outputs = np.zeros((batch, time_steps, HIDDEN))
    w64 = {k: v.astype(np.float64) for k, v in w.items()}
    for t in range(time_steps):
        out, new = step(cell, w64, x[:, t, :].astype(np.float64), state)
        if seq is not None:
            done = (t >= np.asarray(seq))[:, None]
            out = np.where(done, 0.0, out)
            new = tuple(np.where(done, s, n) for s, n in zip(state, new))
        outputs[:, t, :] = out
        state = new
    return outputs, state


def run_block(cell, x, seq_len_max):
    """BlockLSTM(V2) on time-major x: h and cs sequences [T, B, H], zero
    from step seq_len_max on."""
    w = {k: v.astype(np.float64) for k, v in weights(cell).items()}
    time_steps, batch, _ = x.shape
    state = (np.zeros((batch, HIDDEN)), np.zeros((batch, HIDDEN)))
    hs, cs = np.zeros((time_steps, batch, HIDDEN)), np.zeros((time_steps, batch, HIDDEN))
    for t in range(min(seq_len_max, time_steps)):
        h, state = step(cell, w, x[t].astype(np.float64), state)
        hs[t], cs[t] = h, state[0]
    return hs, cs


def main(argv):
    if len(argv) not in (4, 6):
        sys.exit(__doc__)
    what, cell, time_steps, out = argv[0], argv[1], int(argv[2]), argv[3]
    seq = ([int(v) for v in argv[5].split(",")]
           if len(argv) == 6 and argv[4] == "--seq" else None)
    os.makedirs(out, exist_ok=True)
    x = inputs(time_steps)
    block = argv[4:5] == ["--block"]
    if block:
        # BlockLSTM takes x time-major and seq_len_max (int64).
        seq_len_max = int(argv[5])
        x = np.ascontiguousarray(x.transpose(1, 0, 2))
        seq = None
    if what == "inputs":
        if block:
            np.array(seq_len_max, np.int64).tofile(os.path.join(out, "len.bin"))
        x.tofile(os.path.join(out, "x.bin"))
        if seq is not None:
            np.array(seq, np.int32).tofile(os.path.join(out, "seq.bin"))
        return
    if what != "check":
        sys.exit(__doc__)
    if block:
        hs, cs = run_block(cell, x, seq_len_max)
        expected = [("h", hs), ("cs", cs)]
    else:
        outputs, state = run(cell, x, seq)
        expected = [("outputs", outputs)] + [("state%d" % k, s)
                                             for k, s in enumerate(state)]
    ok = True
    for k, (name, want) in enumerate(expected):
        got = np.fromfile(os.path.join(out, "result%d.bin" % k), np.float32)
        if got.size != want.size:
            print("%s: %d values, expected %d" % (name, got.size, want.size))
            ok = False
            continue
        got = got.reshape(want.shape)
        diff = np.abs(got - want)
        bad = diff > 1e-4 + 1e-4 * np.abs(want)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            print("%s: differs at %s: %.7g, expected %.7g" %
                  (name, at, got[at], want[at]))
            ok = False
        else:
            print("%s %s: match (max |diff| %.1e, max |value| %.3g)" %
                  (name, list(want.shape), diff.max(), np.abs(want).max()))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
