#!/usr/bin/env python3
"""A sweep over the decode batch, end to end in Python (docs/python.md, "A worked example").

For each batch size, the best parallel configuration of Llama-3.1-8B decode at 4K on a DGX-H100
(the shipped scenario llama3.1-8b-decode-4k-h100.yaml), then every valid configuration of the
largest batch at once through Scenario.evaluate(). Writes OUT (default batch_sweep.png) with
matplotlib when it is installed (Debian: python3-matplotlib), and prints the table.

    PYTHONPATH=build/python python3 docs/examples/python/batch_sweep.py [OUT.png]
"""
import pathlib
import sys

import numpy as np

import tessera

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "scenarios" / "llama3.1-8b-decode-4k-h100.yaml"


def main(out: str) -> None:
    try:
        import pandas as pd
    except ImportError:  # pandas is optional: the API works without it
        pd = None
    frames, rows = [], []
    for batch in (1, 2, 4, 8, 16, 32, 64):
        s = tessera.Scenario.load(SCENARIO, set={"workload.batch": batch})
        r = s.run()
        best = r.best  # by the scenario's first objective (latency)
        rows.append((batch, best.config["tp"], best.latency_s, best.throughput_tok_s))
        if pd is not None:
            frames.append(r.to_pandas("best").assign(batch=batch))
    if pd is None:
        for row in rows:
            print("batch %d: tp=%d latency %.6f s, %.0f tokens/s" % row)
        print("pandas not installed: no plot")
    else:
        table = pd.concat(frames, ignore_index=True)
        print(table[["batch", "tp", "pp", "latency_s", "throughput_tok_s", "used_bytes"]].to_string(index=False))

    # Every valid configuration of the largest batch at once, columnar.
    s = tessera.Scenario.load(SCENARIO, set={"workload.batch": 64})
    cols = s.evaluate(s.configurations())
    feasible = cols["feasible"]
    print(f"batch 64: {int(feasible.sum())} of {len(feasible)} configurations fit; fastest step "
          f"{np.nanmin(np.where(feasible, cols['latency_s'], np.nan)) * 1e3:.3f} ms")
    if pd is None:
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(table["batch"], table["latency_s"] * 1e3, marker="o", label="step latency")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("decode batch")
    ax.set_ylabel("best step latency (ms)")
    ax2 = ax.twinx()
    ax2.plot(table["batch"], table["throughput_tok_s"], marker="s", color="C1", label="throughput")
    ax2.set_ylabel("throughput (tokens/s)")
    ax.set_title(f"{s.model} on {s.machine}: the best configuration per batch")
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "batch_sweep.png")
