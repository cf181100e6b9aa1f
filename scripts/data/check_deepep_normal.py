#!/usr/bin/env python3
"""DeepEP's normal kernels against their published bandwidths (docs/accuracy.md "DeepEP normal kernels").

Rows 442-447 of data/measurements-collectives.csv (DeepEP README, H800 with one CX7 400 Gb/s NIC per
GPU): 4096 tokens per rank, hidden 7168, top-8 of 256 experts, FP8 dispatch (1 + 4/128 bytes per
element with its scales), BF16 combine, EP16/32/64 over 2/4/8 nodes of 8. The README's "RDMA
bandwidth" is DeepEP's tests/test_internode.py accounting: tokens x the distinct nodes each reaches
(its own included) x hidden x bytes, over the call's time.

The prediction is docs/physics.md §5 "MoE all-to-all kernels" on machines/hgx-h800.yaml's constants
(read from the file): the network level's direct base and the NVLink level's direct bandwidth factor
(the nvlink fabric default 0.81 when the file states none), 50 GB/s per GPU on the network; the
distinct nodes from uniform routing, as Tessera prices them (the benchmark's routing picks the top
4 nodes first, which Tessera does not model). Prints per row the predicted bandwidth and time error.

Usage: scripts/data/check_deepep_normal.py
"""
import csv
import re
import statistics

E, K, H, TOKENS, NODE = 256, 8, 7168, 4096, 8


def missed(unit, n):
    held, q = E * unit / n, 1.0
    for j in range(K):
        q *= max(0.0, (E - held - j) / (E - j))
    return q


def machine():
    text = open("machines/hgx-h800.yaml").read()
    base = float(re.search(r"direct:\s*\{\s*base:\s*([0-9.]+)\s*us", text.split("name: cluster", 1)[1]).group(1))
    node = text.split("name: node", 1)[1].split("name: cluster", 1)[0]
    nvl = float(re.search(r"link_bw:\s*([0-9.]+)\s*GB/s", node).group(1)) * 1e9
    m = re.search(r"direct:\s*\{[^}]*bw_factor:\s*([0-9.]+)", node)
    return base * 1e-6, nvl * (float(m.group(1)) if m else 0.81), 50e9


def main():
    base, nvl_bw, net_bw = machine()
    rows = [r for r in csv.DictReader(open("data/measurements-collectives.csv")) if r["id"] in
            {str(i) for i in range(442, 448)}]
    errors = []
    print(f"{'id':>4} {'kernel':>8} {'EP':>3} {'measured GB/s':>13} {'predicted':>9} {'time error':>10}")
    for r in rows:
        n = int(r["ep"])
        p = 1 + 4 / 128 if r["precision"].startswith("fp8") else 2.0
        M = TOKENS * K * H * p
        nvl = (NODE - 1) * (1 - missed(1, n)) * (n / NODE) / K * M / nvl_bw
        net = (n // NODE - 1) * (1 - missed(NODE, n)) / K * M / net_bw
        t = base + max(nvl, net)
        predicted = TOKENS * H * p * (n // NODE) * (1 - missed(NODE, n)) / t / 1e9
        measured = float(r["value"])
        err = measured / predicted - 1  # predicted time / measured time - 1
        errors.append(abs(err))
        kind = "dispatch" if "dispatch" in r["metric"] else "combine"
        print(f"{r['id']:>4} {kind:>8} {n:>3} {measured:>13.0f} {predicted:>9.1f} {err * 100:>+9.1f}%")
    print(f"median |time error| {statistics.median(errors) * 100:.1f}% over {len(errors)} rows")


if __name__ == "__main__":
    main()
