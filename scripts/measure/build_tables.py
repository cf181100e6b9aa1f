#!/usr/bin/env python3
"""Build latency/measured's operator tables (data/kernel-tables/*.csv) from measurement rows.

Every table entry names the row it was built from (`row ID`), so that `tessera validate-data`
never scores latency/measured on a row that built one of its tables (docs/accuracy.md
"Measured kernel tables"). Tables are written only where the rows fill a full grid.

  python3 scripts/measure/build_tables.py [--h200 data/measurements-h200.csv]
      [--public data/measurements-2024-2026.csv] [--out data/kernel-tables]

Built (README.md of plugins/latency/measured lists them with their rows):
  dgx-h200-gemm-bf16           F.linear rows of measurements-h200.csv, section gemm: m x nk (= N*K)
  dgx-h200-attention-decode-bf16  SDPA decode, enable_gqa=True, default backend: batch x context
  dgx-h200-copy                the 2 GiB device copy (one point)
  dgx-h200-all-reduce-node8    NCCL all-reduce busbw, 8x H200 (Azure ND H200 v5), rows 205-208
  dgx-h100-all-reduce-node8    NCCL all-reduce busbw, 8x H100 (Azure ND H100 v5), rows 200-204
"""

import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def notes_int(notes, key):
    m = re.search(r"\b" + key + r"=(\d+)", notes)
    return int(m.group(1)) if m else None


def write_table(out_dir, name, meta, axes, entries):
    """entries: list of (axis values tuple, time_us, source). Checks the grid is full."""
    grid = [sorted({e[0][a] for e in entries}) for a in range(len(axes))]
    size = 1
    for g in grid:
        size *= len(g)
    keys = {e[0] for e in entries}
    if len(keys) != len(entries) or size != len(entries):
        sys.exit(f"{name}: {len(entries)} entries do not fill the {size}-point grid")
    path = os.path.join(out_dir, name + ".csv")
    with open(path, "w", newline="") as f:
        f.write("# latency/measured operator table (plugins/latency/measured/README.md \"Table format\").\n")
        f.write("# Built by scripts/measure/build_tables.py; every entry names the row it came from.\n")
        for k, v in meta:
            f.write(f"# {k}: {v}\n")
        f.write(",".join(axes + ["time_us", "source"]) + "\n")
        for vals, t_us, src in sorted(entries):
            f.write(",".join([fmt(v) for v in vals] + [f"{t_us:.6g}", src]) + "\n")
    print(f"wrote {path}: {len(entries)} entries, grid " + " x ".join(str(len(g)) for g in grid))


def fmt(v):
    return str(int(v)) if float(v).is_integer() else f"{v:.6g}"


def h200_tables(rows, out_dir):
    software = "PyTorch 2.11.0+cu130 (CUDA 13.0, cuBLAS/flash as shipped), one H200 SXM, 2026-11-29"
    gemm = []
    for r in rows:
        if "section gemm" not in r["source_locator"] or "F.linear" not in r["notes"]:
            continue
        m, k, n = (notes_int(r["notes"], x) for x in ("M", "K", "N"))
        gemm.append(((m, n * k), float(r["value"]) * 1e3, "row " + r["id"]))
    write_table(out_dir, "dgx-h200-gemm-bf16",
                [("machine", "DGX-H200"), ("software", software + "; F.linear x[M,K] W[N,K], cold L2"),
                 ("framework", "any"), ("op", "gemm"), ("dtype", "bf16")],
                ["m", "nk"], gemm)
    attn = []
    for r in rows:
        if r["metric"] != "op_latency:attention_decode" or "enable_gqa=True, default backend" not in r["notes"]:
            continue
        b = int(re.search(r"q \[B=(\d+)", r["notes"]).group(1))
        attn.append(((b, int(r["input_len"]), 64, 8), float(r["value"]) * 1e3, "row " + r["id"]))
    write_table(out_dir, "dgx-h200-attention-decode-bf16",
                [("machine", "DGX-H200"),
                 ("software", software + "; F.scaled_dot_product_attention enable_gqa=True (flash), head_dim 128"),
                 ("framework", "any"), ("op", "attention_decode"), ("dtype", "bf16")],
                ["batch", "context", "q_heads", "kv_heads"], attn)
    copy = [((notes_int(r["notes"], "bytes"),), float(r["value"]) * 1e3, "row " + r["id"])
            for r in rows if "section ceilings" in r["source_locator"] and r["notes"].startswith("copy ")]
    write_table(out_dir, "dgx-h200-copy",
                [("machine", "DGX-H200"), ("software", software + "; dst.copy_(src)"), ("framework", "any"),
                 ("op", "copy"), ("dtype", "any")],
                ["bytes"], copy)


def allreduce_table(rows, ids, machine, name, out_dir):
    entries, software = [], ""
    for r in rows:
        if int(r["id"]) not in ids:
            continue
        n = int(r["n_devices"])
        size = notes_int(r["notes"], "msg_bytes")
        busbw = float(r["value"]) * 1e9  # GB/s
        # nccl-tests: busbw = algbw * 2(n-1)/n, algbw = size / time.
        t_us = size * 2 * (n - 1) / n / busbw * 1e6
        entries.append(((size, n), t_us, "row " + r["id"]))
        software = r["software"]
    write_table(out_dir, name,
                [("machine", machine), ("software", software + "; nccl-tests all_reduce_perf, NCCL_ALGO=NVLS"),
                 ("framework", "any"), ("op", "all_reduce"), ("dtype", "any"), ("level", "node")],
                ["bytes", "ranks"], entries)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--h200", default=os.path.join(ROOT, "data", "measurements-h200.csv"))
    ap.add_argument("--public", default=os.path.join(ROOT, "data", "measurements-2024-2026.csv"))
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "kernel-tables"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    h200_tables(read_rows(a.h200), a.out)
    public = read_rows(a.public)
    allreduce_table(public, set(range(205, 209)), "DGX-H200", "dgx-h200-all-reduce-node8", a.out)
    allreduce_table(public, set(range(200, 205)), "DGX-H100", "dgx-h100-all-reduce-node8", a.out)


if __name__ == "__main__":
    main()
