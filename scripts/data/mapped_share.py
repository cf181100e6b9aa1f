#!/usr/bin/env python3
"""Mapped share of the public latency and serving rows, and the unmapped rows counted by reason
(docs/accuracy.md "Mapped share").

Usage: scripts/data/mapped_share.py [--tessera build/bin/tessera] FILE.csv...

Runs `tessera validate-data FILE --latency calibrated --json` on each file and counts the rows
whose metric is a latency or serving metric (everything but collectives, kernel TFLOPS, mbu and
mfu). A reason's class is its text with the quoted cell value ('...') replaced by '…', so rows
refused for the same rule count together. Rows measured under a request rate map through the
request simulator (docs/accuracy.md "Rows under a load") and count like the others.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import tempfile


def serving(metric):
    return not (metric.startswith("collective_") or metric in ("kernel_tflops", "mbu", "mfu"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessera", default="build/bin/tessera")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    total = mapped = 0
    reasons = collections.Counter()
    for f in a.files:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "v.json")
            subprocess.run([a.tessera, "validate-data", f, "--latency", "calibrated", "--json", out],
                           check=True, stdout=subprocess.DEVNULL)
            v = json.load(open(out))
        n = sum(1 for r in v["rows"] if serving(r["metric"]))
        u = [r for r in v["unmapped"] if serving(r["metric"])]
        print(f"{f}: {n} of {n + len(u)} latency/serving rows mapped")
        total += n + len(u)
        mapped += n
        for r in u:
            reason = r["reason"]
            m = re.match(r"^(\w+) '.*'((?::| has| does| is) .*)$", reason)
            if m:
                reason = f"{m.group(1)} '…'{m.group(2)}"
            reason = re.sub(r"'[^' ]*'", "'…'", reason)
            reasons[reason[:140]] += 1
    print(f"all: {mapped} of {total} mapped ({100.0 * mapped / max(total, 1):.1f} %)")
    for k, c in reasons.most_common():
        print(f"{c:5d}  {k}")


main()
