"""Checks a tfaot --quantize_report JSON file against accuracy bounds.

usage: check_quantize_report.py REPORT.json OUTPUT MAX_RELATIVE_ERROR
                                MIN_TOP1_AGREEMENT
Fails (exit 1, saying why) when output OUTPUT's largest int8-vs-float error
exceeds MAX_RELATIVE_ERROR times its largest float magnitude, or when its
top-1 agreement is below MIN_TOP1_AGREEMENT (a fraction).
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
        print("error: no difference at all: did the int8 code run?")
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(*sys.argv[1:])
