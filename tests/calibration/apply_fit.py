#!/usr/bin/env python3
"""Writes the parameters printed by fit_calibrated into the shipped files.

    build/bin/fit_calibrated --target data/measurements.csv --extra data/measurements-h200.csv \
        --exclude-ids 1132-1143 --exclude-notes grouped > fit.txt
    tests/calibration/apply_fit.py fit.txt

Each family's `efficiency:` block replaces the one between the `# BEGIN calibrated efficiency`
and `# END calibrated efficiency` lines of that family's machine files (appended when absent);
the fitted profile values (only profiles whose rows come from at least two sources) replace the
lines between BEGIN/END FITTED VALUES in plugins/latency/calibrated/profiles.cpp.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# hgx-h800: the H100 SXM's GH100 die, Tensor Core peaks and HBM3 (NVLink and FP64 cut), so the
# single-GPU efficiencies of the H100/H200 block hold for it (machines/hgx-h800.yaml cites why).
FAMILIES = {"A100": ["dgx-a100-40gb", "dgx-a100-80gb"], "H100/H200": ["dgx-h100", "dgx-h200", "hgx-h800"]}
BEGIN, END = "# BEGIN calibrated efficiency", "# END calibrated efficiency"


def main(path):
    text = Path(path).read_text()
    blocks = dict(re.findall(r"# family (\S+):\nefficiency:\n((?:  .*\n)+)", text))
    profiles = re.findall(r"^    \{\"[^\"]+\", \{.*\}\},$", text, re.M)
    if not blocks or not profiles:
        sys.exit("apply_fit: no efficiency blocks or profiles in " + path)
    for fam, body in blocks.items():
        for stem in FAMILIES.get(fam, []):
            f = ROOT / "machines" / (stem + ".yaml")
            src = f.read_text()
            block = (f"{BEGIN} (family {fam}; fitted by tests/calibration/fit_calibrated, docs/accuracy.md)\n"
                     f"# Read by latency/calibrated only; other latency models ignore it.\nefficiency:\n"
                     f'  family: "{fam}"\n{body}{END}\n')
            if BEGIN in src:
                src = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n", lambda _: block, src, flags=re.S)
            else:
                src = src.rstrip("\n") + "\n" + block
            f.write_text(src)
            print("wrote", f)
    pf = ROOT / "plugins/latency/calibrated/profiles.cpp"
    src = pf.read_text()
    head = "const Fitted kFitted[] = {\n"
    start = src.index(head) + len(head)
    stop = src.index("};\n// END FITTED VALUES")
    src = src[:start] + "\n".join(profiles) + "\n" + src[stop:]
    pf.write_text(src)
    print("wrote", pf)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fit.txt")
