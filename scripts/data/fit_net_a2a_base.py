#!/usr/bin/env python3
"""The fixed cost of an MoE all-to-all kernel across InfiniBand nodes, fitted to measured rows.

Tessera prices an all-to-all whose group spans nodes as `direct`: base + (n-1) hop + the
slowest level's share of the bytes over its injection rate (docs/physics.md §5). The network
level's default base is NCCL's Simple send/recv base, 8.4 us; the MoE dispatch/combine kernels
serving stacks run across nodes (DeepEP low-latency, pplx-kernels; GPU-initiated RDMA with a
flag per peer) measure a fixed cost tens of microseconds higher (data/measurements-collectives.csv:
DeepEP README rows 450-459 on H800, pplx-kernels rows 3165-3172 on H100 at one token). The time
is linear in the base, so each row says base' = base + (t - p); the fit is the median over the
latency rows of group "all-to-all across nodes" on the machines named.

Leave-one-source-out: each source's rows predicted with the base the other sources' rows give;
per-source and group median APE over every row of the group (any machine) are printed for
docs/accuracy.md.

Usage: scripts/data/fit_net_a2a_base.py [TESSERA] [--base-now US]
"""
import re
import statistics
import sys

from collective_table import collective_rows

MACHINES = {"dgx-h100", "dgx-h200", "hgx-h800"}


def base_now(args):
    if "--base-now" in args:
        return float(args[args.index("--base-now") + 1])
    text = open("machines/dgx-h100.yaml").read()
    m = re.search(r"direct:\s*\{\s*base:\s*([0-9.]+)\s*us", text.split("name: cluster", 1)[-1])
    return float(m.group(1)) if m else 8.4


def rows_of(tessera):
    return [r for r in collective_rows(tessera) if r["group"] == "all-to-all across nodes"]


def main(args):
    tessera = next((a for a in args if not a.startswith("--") and not a[0].isdigit()), "build/bin/tessera")
    b0 = base_now(args)
    rows = rows_of(tessera)
    fit = [r for r in rows if r["machine"] in MACHINES and r["unit"] == "us"]
    if not fit:
        sys.exit("no all-to-all rows across nodes mapped to the InfiniBand machines: nothing to fit")

    def base_of(rs):
        return statistics.median(b0 + (r["measured"] - r["predicted"]) for r in rs)

    print(f"network direct base now {b0:.2f} us; fitted on {len(fit)} rows of "
          f"{len({r['source'] for r in fit})} sources: {base_of(fit):.2f} us")
    apes = []
    for src in sorted({r["source"] for r in rows}):
        others = [r for r in fit if r["source"] != src]
        b = base_of(others) if others else b0
        e = []
        for r in (r for r in rows if r["source"] == src):
            p = r["predicted"] + (b - b0 if r["machine"] in MACHINES and r["unit"] == "us" else 0)
            e.append(abs(p - r["measured"]) / r["measured"] * 100)
        apes += e
        print(f"  {src[:70]:70s} base {b:6.2f} us  rows {len(e):2d}  median APE {statistics.median(e):5.1f} %")
    print(f"leave-one-source-out median APE over the group's {len(apes)} rows: {statistics.median(apes):.1f} %")


if __name__ == "__main__":
    main(sys.argv[1:])
