#!/usr/bin/env python3
"""Refresh latency/measured's single-GPU operator tables (GEMM, attention, copy) on one GPU.

One command, under 10 minutes on an H100/H200-class GPU (the grid below is sized for that; the
script stops before a section that would not fit in --budget-s). Writes, in the table format of
plugins/latency/measured/README.md, one CSV per table into --out:

  <prefix>-gemm-<dtype>.csv              F.linear x[M,K] W[N,K]: m x n x k
  <prefix>-attention-decode-<dtype>.csv  SDPA decode, enable_gqa=True: batch x context x q_heads x kv_heads
  <prefix>-attention-prefill-<dtype>.csv SDPA causal prefill, enable_gqa=True: the same axes (context = prompt)
  <prefix>-copy.csv                      dst.copy_(src): bytes

Every entry's source is `scripts/measure/measure_tables.py DATE` (not a measurement row: nothing
to exclude from validate-data). Timing as scripts/measure/h200_measure.py: CUDA events, warm-up,
median of repeats, a 256 MiB read before every repeat so weights and KV come from HBM.

  On the GPU:   python3 scripts/measure/measure_tables.py --machine DGX-H200 --prefix dgx-h200 --out $OUT/kernel-tables
  No GPU:       python3 scripts/measure/measure_tables.py --dry-run         (the grid, no torch needed)
                python3 scripts/measure/measure_tables.py --synthetic --out DIR
                    (the same files with roofline times, source `synthetic`, for testing the format)
Then copy the files into data/kernel-tables/ (replacing the tables of the same name) and re-run cmake.
"""

import argparse
import datetime
import itertools
import math
import os
import statistics
import sys
import time

GEMM_M = [1, 4, 16, 64, 256, 1024, 4096]
GEMM_N = [1024, 2048, 4096, 8192, 16384, 32768, 65536]
GEMM_K = [1024, 2048, 4096, 8192, 16384]
DECODE_BATCH = [1, 4, 16, 64]
DECODE_CONTEXT = [512, 2048, 8192, 32768, 131072]
PREFILL_BATCH = [1]
PREFILL_CONTEXT = [512, 2048, 8192, 32768]
HEADS_Q = [8, 16, 32, 64]
HEADS_KV = [1, 2, 4, 8]
HEAD_DIM = 128
COPY_BYTES = [1 << 20, 16 << 20, 256 << 20, 2 << 30]
# Roofline of the synthetic times (H200 SXM: 989 TFLOP/s bf16 dense, 4.8 TB/s) and a 5 us floor.
SYN_PEAK, SYN_BW, SYN_FLOOR = 989e12, 4.8e12, 5e-6


def tables(dtype):
    """name suffix, op, axes, grid points (list of tuples), meta note."""
    return [
        ("copy", "copy", "any", ["bytes"], [(b,) for b in COPY_BYTES], "dst.copy_(src)"),
        (f"attention-decode-{dtype}", "attention_decode", dtype, ["batch", "context", "q_heads", "kv_heads"],
         list(itertools.product(DECODE_BATCH, DECODE_CONTEXT, HEADS_Q, HEADS_KV)),
         f"F.scaled_dot_product_attention one query token, enable_gqa=True, head_dim {HEAD_DIM}"),
        (f"attention-prefill-{dtype}", "attention_prefill", dtype, ["batch", "context", "q_heads", "kv_heads"],
         list(itertools.product(PREFILL_BATCH, PREFILL_CONTEXT, HEADS_Q, HEADS_KV)),
         f"F.scaled_dot_product_attention causal, enable_gqa=True, head_dim {HEAD_DIM}"),
        (f"gemm-{dtype}", "gemm", dtype, ["m", "n", "k"], list(itertools.product(GEMM_M, GEMM_N, GEMM_K)),
         "F.linear x[M,K] W[N,K], cold L2"),
    ]


def roofline_s(op, p, elem=2):
    if op == "copy":
        return max(SYN_FLOOR, 2 * p[0] / SYN_BW)
    if op == "gemm":
        m, n, k = p
        return max(SYN_FLOOR, 2 * m * n * k / SYN_PEAK, (m * k + n * k + m * n) * elem / SYN_BW)
    b, s, hq, hkv = p
    if op == "attention_decode":
        return max(SYN_FLOOR, 4 * b * hq * s * HEAD_DIM / SYN_PEAK, 2 * b * s * hkv * HEAD_DIM * elem / SYN_BW)
    return max(SYN_FLOOR, 2 * b * hq * s * s * HEAD_DIM / SYN_PEAK, 2 * b * s * hkv * HEAD_DIM * elem / SYN_BW)


def write(out_dir, prefix, machine, software, framework, suffix, op, dtype, axes, entries, note):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{prefix}-{suffix}.csv")
    with open(path + ".tmp", "w") as f:
        f.write("# latency/measured operator table (plugins/latency/measured/README.md \"Table format\").\n")
        f.write("# Written by scripts/measure/measure_tables.py.\n")
        f.write(f"# machine: {machine}\n# software: {software}; {note}\n# framework: {framework}\n")
        f.write(f"# op: {op}\n# dtype: {dtype}\n")
        f.write(",".join(axes + ["time_us", "source"]) + "\n")
        for p, t_s, src in entries:
            f.write(",".join([str(v) for v in p] + [f"{t_s * 1e6:.6g}", src]) + "\n")
    os.replace(path + ".tmp", path)  # a table appears only complete
    print(f"wrote {path} ({len(entries)} entries)", flush=True)


class Bench:
    def __init__(self, torch):
        self.torch = torch
        self.flush_buf = torch.ones(64 * 1024 * 1024, dtype=torch.float32, device="cuda")
        self.flush_out = torch.empty((), dtype=torch.float32, device="cuda")

    def time_s(self, fn, est_s):
        torch = self.torch
        reps = max(3, min(30, int(0.05 / max(est_s, 1e-6))))
        for _ in range(2):
            fn()
        torch.cuda.synchronize()
        evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        for s, e in evs:
            torch.sum(self.flush_buf, dim=0, out=self.flush_out)
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) for s, e in evs) * 1e-3


def measure(op, points, bench, torch, tdtype):
    F = torch.nn.functional
    out = []
    if op == "copy":
        for (b,) in points:
            src = torch.empty(b // 2, dtype=tdtype, device="cuda")
            dst = torch.empty_like(src)
            out.append(bench.time_s(lambda: dst.copy_(src), roofline_s(op, (b,))))
            del src, dst
    elif op == "gemm":
        kmax, nmax, mmax = max(GEMM_K), max(GEMM_N), max(GEMM_M)
        W = torch.randn(nmax * kmax, device="cuda", dtype=tdtype)
        X = torch.randn(mmax * kmax, device="cuda", dtype=tdtype)
        for m, n, k in points:
            w = W[: n * k].view(n, k)
            x = X[: m * k].view(m, k)
            out.append(bench.time_s(lambda: F.linear(x, w), roofline_s(op, (m, n, k))))
        del W, X
    else:
        decode = op == "attention_decode"
        for b, s, hq, hkv in points:
            q = torch.randn(b, hq, 1 if decode else s, HEAD_DIM, device="cuda", dtype=tdtype)
            kv = torch.randn(2, b, hkv, s, HEAD_DIM, device="cuda", dtype=tdtype)
            fn = lambda: F.scaled_dot_product_attention(q, kv[0], kv[1], is_causal=not decode, enable_gqa=True)
            out.append(bench.time_s(fn, roofline_s(op, (b, s, hq, hkv))))
            del q, kv
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", default="DGX-H200", help="MachineSpec name the tables apply to")
    ap.add_argument("--prefix", default="dgx-h200", help="file name prefix of the tables")
    ap.add_argument("--framework", default="any", help="calibrated framework the tables apply to")
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "fp16"])
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "kernel-tables"))
    ap.add_argument("--budget-s", type=float, default=540, help="skip a section that would start after this")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the grid and its roofline time; no torch")
    mode.add_argument("--synthetic", action="store_true", help="write the tables with roofline times (tests)")
    a = ap.parse_args()
    date = datetime.date.today().isoformat()
    if a.dry_run:
        total = 0.0
        for suffix, op, dtype, axes, pts, _ in tables(a.dtype):
            est = sum(roofline_s(op, p) * (2 + max(3, min(30, int(0.05 / roofline_s(op, p))))) for p in pts)
            total += est
            print(f"{a.prefix}-{suffix}.csv: op {op}, {len(pts)} points, roofline estimate {est:.1f} s")
            for ax, vals in zip(axes, zip(*pts)):
                print(f"  {ax}: {sorted(set(vals))}")
        print(f"total roofline estimate {total:.0f} s of GPU time (budget {a.budget_s:.0f} s)")
        return 0
    if a.synthetic:
        for suffix, op, dtype, axes, pts, note in tables(a.dtype):
            entries = [(p, roofline_s(op, p), "synthetic (measure_tables.py --synthetic; not a measurement)")
                       for p in pts]
            write(a.out, a.prefix, a.machine, "synthetic roofline", a.framework, suffix, op, dtype, axes, entries,
                  note)
        return 0
    import torch  # only on the GPU machine
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: use --dry-run or --synthetic")
    tdtype = torch.bfloat16 if a.dtype == "bf16" else torch.float16
    software = (f"PyTorch {torch.__version__} (CUDA {torch.version.cuda}), {torch.cuda.get_device_name(0)}, "
                f"{date}")
    bench = Bench(torch)
    t0 = time.time()
    for suffix, op, dtype, axes, pts, note in tables(a.dtype):
        est = sum(roofline_s(op, p) for p in pts) * 6
        if time.time() - t0 + est > a.budget_s:
            print(f"skipped {suffix}: about {est:.0f} s would pass the budget", flush=True)
            continue
        times = measure(op, pts, bench, torch, tdtype)
        entries = [(p, t, f"scripts/measure/measure_tables.py {date}") for p, t in zip(pts, times)]
        write(a.out, a.prefix, a.machine, software, a.framework, suffix, op, dtype, axes, entries, note)
        print(f"[{time.time() - t0:.0f} s] {suffix} done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
