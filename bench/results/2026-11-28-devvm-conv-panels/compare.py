# SPDX-License-Identifier: Apache-2.0
"""Per-layer A/B of two builds from `tfaot bench --profile` traces.

    python3 compare.py PEAK_GFLOPS BATCH 'A-traces-glob' 'B-traces-glob'

Each layer's fastest run in A's traces and in B's (layers.py), as ms, % of
the FMA peak PEAK_GFLOPS, and B / A; layers in the order of the network.
"""
import glob
import sys

from layers import MACS, layer_minima

peak, batch = float(sys.argv[1]), int(sys.argv[2])
_, a = layer_minima(sorted(glob.glob(sys.argv[3])))
_, b = layer_minima(sorted(glob.glob(sys.argv[4])))
print("| layer | A ms | B ms | A % of peak | B % of peak | B / A |")
print("|---|---|---|---|---|---|")
totals = [0.0, 0.0]
for layer in sorted(set(a) & set(b), key=list(MACS).index):
    mflop = 2 * batch * MACS[layer] / 1e6
    totals[0] += a[layer]
    totals[1] += b[layer]
    print(f"| {layer} | {a[layer]:.3f} | {b[layer]:.3f} | "
          f"{100 * mflop / a[layer] / peak:.0f} | "
          f"{100 * mflop / b[layer] / peak:.0f} | {b[layer] / a[layer]:.2f} |")
print(f"| all | {totals[0]:.2f} | {totals[1]:.2f} | | | "
      f"{totals[1] / totals[0]:.2f} |")
