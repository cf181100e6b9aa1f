#!/usr/bin/env python3
"""A serving study end to end in Python (docs/python.md, "Worked examples").

Llama-3.1-70B serving 4K-in / 1K-out requests under the shipped SLO
(scenarios/llama3.1-70b-serve-4k1k-h100.yaml) on three machines: the scenario as shipped
(DGX-H100), then with_machine("dgx-h200") and with_machine("dgx-b200"). For each, the serving
study's Pareto frontier of throughput per GPU against the speed each user sees, collected with
`r.to_pandas("frontier")`, and the best configuration within the SLO. Plots the three frontiers
with matplotlib (the Agg backend: no display needed) into OUT.

    PYTHONPATH=build/python /usr/bin/python3 docs/examples/python/serving_frontier.py OUT.png
"""
import pathlib
import sys

import tessera

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml"


def main(out: str) -> None:
    import pandas as pd  # Debian: python3-pandas (to_pandas needs it; the API does not)

    base = tessera.Scenario.load(SCENARIO)
    studies = {"DGX-H100": base, "DGX-H200": base.with_machine("dgx-h200"),
               "DGX-B200": base.with_machine("dgx-b200")}
    frames, best = [], []
    for label, s in studies.items():
        r = s.serve()  # every configuration x serving point against the SLO
        frames.append(r.to_pandas("frontier").assign(machine=label))
        if r.best is not None:
            best.append((label, r.best))
    table = pd.concat(frames, ignore_index=True)
    cols = ["machine", "tp", "pp", "dp", "batch", "replicas", "ttft_s", "tpot_s", "tokens_per_s_per_user",
            "tokens_per_s_per_pe"]
    print(table[cols].to_string(index=False))
    for label, b in best:
        print(f"{label}: best within the SLO tp={b.config['tp']} pp={b.config['pp']} batch {b.batch}: "
              f"{b.tokens_per_s_per_pe:.0f} tokens/s per GPU at {b.tokens_per_s_per_user:.1f} tokens/s per user "
              f"(TTFT {b.ttft_s:.3f} s, TPOT {b.tpot_s * 1e3:.1f} ms)")

    import matplotlib

    matplotlib.use("Agg")  # files only
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for label, part in table.groupby("machine", sort=False):
        part = part.sort_values("tokens_per_s_per_user")
        ax.plot(part["tokens_per_s_per_user"], part["tokens_per_s_per_pe"], marker="o", label=label)
    ax.set_xlabel("tokens/s per user (1 / TPOT)")
    ax.set_ylabel("tokens/s per GPU")
    ax.set_title(f"{base.model}, 4K in / 1K out: serving frontiers within the SLO")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "serving_frontier.png")
