#!/usr/bin/env python3
"""The per-hop latency of NCCL's tree/LL across InfiniBand nodes, fitted to measured rows.

NCCL's tuning model (tuning.cc hwLat[NET][TREE][LL] = 5 us) prices a 16-rank, 2-node H100
all-reduce of 1-64 KiB at about 25 us; nccl-tests runs on InfiniBand H100 clusters measure
30-42 us (data/measurements-collectives.csv ids 3000-3026). The tree's latency is
base + 2 (intra-node chain x NVLink hop + log2(nodes) x NET hop) (docs/physics.md §5), so a
row measured at t where Tessera predicts p with NET hop h says h' = h + (t - p) / (2 log2(nodes)).

The fit: the median h' over the tree/LL latency rows of 64 KiB or less on the machines named
(the rows Tessera maps to `nccl_tree/LL`, algorithm not forced) whose hardware says InfiniBand
(GCP A3 Mega's TCPXO and RoCE rows are not this fabric). Leave-one-source-out: each
source's rows predicted with the hop fitted from the other sources' rows (a busbw row moves
with its time only through the hop, which it does not: busbw rows are of large messages, not
tree/LL); per-source and group median APE over every row of the group "all-reduce across nodes"
(any machine), printed for docs/accuracy.md.

Usage: scripts/data/fit_net_tree_hop.py [TESSERA] [--hop-now US]
  TESSERA: the tessera binary (default build/bin/tessera); --hop-now: the NET tree/LL hop the
  machine files use now (default: read from machines/dgx-h100.yaml, else NCCL's 5 us).
"""
import math
import re
import statistics
import sys

from collective_table import collective_rows

MACHINES = {"dgx-h100", "dgx-h200"}


def hop_now(args):
    if "--hop-now" in args:
        return float(args[args.index("--hop-now") + 1])
    text = open("machines/dgx-h100.yaml").read()
    m = re.search(r"tree:\s*\{\s*ll:\s*\{\s*hop:\s*([0-9.]+)\s*us", text)
    return float(m.group(1)) if m else 5.0


def rows_of(tessera):
    rows = [r for r in collective_rows(tessera) if r["collective"] == "all_reduce"]
    for r in rows:
        r["infiniband"] = "infiniband" in r["hardware"].lower()
    return rows


def main(args):
    tessera = next((a for a in args if not a.startswith("--") and not a[0].isdigit()), "build/bin/tessera")
    h0 = hop_now(args)
    rows = rows_of(tessera)
    fit = [r for r in rows if r["algorithm"] == "nccl_tree/LL" and r["unit"] == "us" and r["bytes"] <= 65536
           and r["group"] == "all-reduce across nodes" and r["infiniband"] and r["machine"] in MACHINES]
    if not fit:
        sys.exit("no InfiniBand tree/LL rows of 64 KiB or less mapped: nothing to fit (is the build current?)")
    nodes = {r["id"]: r["ranks"] // 8 for r in fit}

    def hop_of(rs):
        return statistics.median(h0 + (r["measured"] - r["predicted"]) / (2 * math.log2(nodes[r["id"]]))
                                 for r in rs)

    h_all = hop_of(fit)
    print(f"NET tree/LL hop now {h0:.2f} us; fitted on {len(fit)} rows of "
          f"{len({r['source'] for r in fit})} sources: {h_all:.2f} us")
    group = [r for r in rows if r["group"] == "all-reduce across nodes"]
    apes = []
    for src in sorted({r["source"] for r in group}):
        others = [r for r in fit if r["source"] != src]
        h = hop_of(others) if others else h0
        mine = [r for r in group if r["source"] == src]
        e = []
        for r in mine:
            p = r["predicted"]
            if r["machine"] in MACHINES and r["algorithm"] == "nccl_tree/LL" and r["unit"] == "us":
                p += 2 * math.log2(max(2, r["ranks"] // 8)) * (h - h0)
            e.append(abs(p - r["measured"]) / r["measured"] * 100)
        if e:
            apes += e
            print(f"  {src[:70]:70s} hop {h:5.2f} us  rows {len(e):2d}  median APE {statistics.median(e):5.1f} %")
    print(f"leave-one-source-out median APE over the group's {len(apes)} rows (time and busbw): "
          f"{statistics.median(apes):.1f} %")


if __name__ == "__main__":
    main(sys.argv[1:])
