#!/usr/bin/env python3
"""s.evaluate() on 10^5 configurations against the C++ per-configuration figure (docs/performance.md).

The default scenario's valid canonical configurations (Scenario.configurations(), in the grid's
order, as an exhaustive sweep meets them), repeated to 10^5 rows, evaluated on one thread
through the Python module: the fastest of 5 calls, per configuration. With the C++ benchmark
built (`make bench`: build/bin/bench_evaluate) it also runs BM_Evaluate/llama3_70b (the same
scenario, one thread, round robin over the same configurations) and prints the ratio.

    PYTHONPATH=build/python python3 bench/python_evaluate.py [build]
"""
import json
import pathlib
import subprocess
import sys
import time

import numpy as np

import tessera

ROOT = pathlib.Path(__file__).resolve().parents[1]
N = 100_000


def main() -> None:
    build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build")
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-decode-128k.yaml")
    configs = s.configurations()
    batch = np.resize(configs, N)
    s.evaluate(batch[:1000], threads=1)  # warm
    best = min(_timed(lambda: s.evaluate(batch, threads=1, canonical=False)) for _ in range(5))
    py_ns = best / N * 1e9
    print(f"python s.evaluate: {N} configurations ({len(configs)} distinct) on 1 thread: "
          f"{best * 1e3:.1f} ms, {py_ns:.0f} ns per configuration")
    exe = build / "bin" / "bench_evaluate"
    if not exe.exists():
        print(f"{exe} not built (make bench): no C++ figure")
        return
    out = subprocess.run([str(exe), "--benchmark_filter=BM_Evaluate/llama3_70b", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    rows = [b for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "median"]
    cpp_ns = rows[0]["cpu_time"] if rows[0]["time_unit"] == "ns" else rows[0]["cpu_time"] * 1e3
    print(f"C++ BM_Evaluate/llama3_70b (median of 5): {cpp_ns:.0f} ns per configuration")
    print(f"ratio python / C++: {py_ns / cpp_ns:.2f}x (acceptance: < 3x)")


def _timed(f) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
