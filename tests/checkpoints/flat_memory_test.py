#!/usr/bin/env python3
"""Peak memory does not grow with the space (docs/performance.md "Memory"): `tessera run` on
about 10^6 and 10^7 valid configurations peaks within 10 MB of each other (the whole process's
maximum resident set, getrusage of the child). Usage: flat_memory_test.py BUILD_DIR SOURCE_DIR."""
import os
import re
import resource
import subprocess
import sys
import tempfile

import sweep_scenario

LIMIT_MB = 10


def peak_run(exe, scenario, extra):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([exe, "run", scenario, "-q", "--threads", "2"] + extra, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"tessera run {scenario} failed ({out.returncode}):\n{out.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KB, the largest child so far
    m = re.search(r"valid (\d+)", out.stdout)
    return int(m.group(1)), peak, before


def main():
    build, source = sys.argv[1], sys.argv[2]
    exe = os.path.join(build, "bin", "tessera")
    with tempfile.TemporaryDirectory() as d:
        small, large = os.path.join(d, "small.yaml"), os.path.join(d, "large.yaml")
        extra = sweep_scenario.write(small, source, 22)
        sweep_scenario.write(large, source, 770)
        n_small, peak_small, _ = peak_run(exe, small, extra)
        # The larger run second: RUSAGE_CHILDREN keeps the maximum over children, so its peak is
        # max(small, large), which is what the bound is about.
        n_large, peak_large, _ = peak_run(exe, large, extra)
    print(f"{n_small} configurations: peak {peak_small / 1024:.1f} MB; "
          f"{n_large} configurations: peak {peak_large / 1024:.1f} MB")
    if not (0.9e6 <= n_small <= 1.2e6 and 0.9e7 <= n_large <= 1.2e7):
        sys.exit(f"the sweeps are not of 10^6 and 10^7 configurations: {n_small}, {n_large}")
    if (peak_large - peak_small) / 1024 > LIMIT_MB:
        sys.exit(f"peak memory grew by {(peak_large - peak_small) / 1024:.1f} MB from 10^6 to 10^7 "
                 f"configurations (at most {LIMIT_MB} MB)")


if __name__ == "__main__":
    main()
