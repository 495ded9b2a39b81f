# SPDX-License-Identifier: Apache-2.0
"""Checks a tfaot --quantize_report or --precision_report JSON file against
accuracy bounds.

usage: check_quantize_report.py REPORT.json OUTPUT MAX_RELATIVE_ERROR
                                MIN_TOP1_AGREEMENT
       check_quantize_report.py --same-outputs A.json B.json
Fails (exit 1, saying why) when output OUTPUT's largest error against float
exceeds MAX_RELATIVE_ERROR times its largest float magnitude, or when its
top-1 agreement is below MIN_TOP1_AGREEMENT (a fraction). With
--same-outputs, when two reports (say, of a CPU and a GPU build) give
different error figures for any output: max and mean errors more than 1e-4
apart relatively, or another top-1 agreement count.
"""
import json
import sys


def main(path, output, max_relative_error, min_agreement):
    report = json.load(open(path))
    outputs = [o for o in report["outputs"] if o["name"] == output]
    if not outputs:
        sys.exit("no output named %r in %s" % (output, path))
    out = outputs[0]
    relative = out["max_abs_error"] / out["max_abs_float"]
    agreement = out["top1_agree"] / out["top1_rows"]
    print("%s: max error %.4f of the largest value, top-1 agreement %.4f"
          % (output, relative, agreement))
    ok = True
    if not relative <= float(max_relative_error):
        print("error: max error above %s" % max_relative_error)
        ok = False
    if not agreement >= float(min_agreement):
        print("error: top-1 agreement below %s" % min_agreement)
        ok = False
    if out["max_abs_error"] == 0:
        print("error: no difference at all: did the int8 or 16-bit code run?")
        ok = False
    sys.exit(0 if ok else 1)


def same_outputs(path_a, path_b):
    a, b = json.load(open(path_a)), json.load(open(path_b))
    ok = len(a["outputs"]) == len(b["outputs"])
    for x, y in zip(a["outputs"], b["outputs"]):
        for key in ("max_abs_error", "mean_abs_error"):
            if abs(x[key] - y[key]) > 1e-4 * max(abs(x[key]), abs(y[key])):
                print("error: %s %s: %r against %r"
                      % (x["name"], key, x[key], y[key]))
                ok = False
        if x.get("top1_agree") != y.get("top1_agree"):
            print("error: %s top-1 agreement: %r against %r"
                  % (x["name"], x.get("top1_agree"), y.get("top1_agree")))
            ok = False
    print("same outputs" if ok else "outputs differ")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    if sys.argv[1] == "--same-outputs":
        same_outputs(*sys.argv[2:])
    main(*sys.argv[1:])
