#!/usr/bin/env python3
"""Measure GEMMs, HBM copy, decode attention and whole-model Llama-3.1-8B steps on one GPU.

Written for the lent NVIDIA H200 (PyTorch 2.11, no network: every model is built from a
config with random weights, nothing is downloaded). Writes one CSV in the column format of
data/measurements.csv to $OUT/measurements-h200.csv (or --out), one row per number,
flushed after every row so a timeout keeps what was measured.

Timing: CUDA events, warm-ups first, median of repeats.
  * kernels (GEMM, copy, attention): a 256 MiB read before every repeat evicts L2 (50 MB on
    H100/H200) so weights and KV come from HBM, as they do between layers of a real model,
    and keeps the GPU busy while the host enqueues the timed kernel (no launch gap inside
    the timed region).
  * whole-model steps: synchronize before every repeat, so the value is the latency of one
    step as a caller sees it, host launch overhead included (eager PyTorch is launch-bound
    at small batch; the CUDA-graph rows show the GPU-side floor).

Usage on the device:  python3 scripts/measure/h200_measure.py [--budget-s 420]
Local smoke test (CPU, tiny shapes):  python3 scripts/measure/h200_measure.py --smoke --out /tmp/x.csv
"""

import argparse
import csv
import inspect
import math
import os
import statistics
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

T0 = time.time()
COLUMNS = ["id", "source", "source_locator", "software", "model", "precision", "hardware",
           "n_devices", "tp", "pp", "ep", "batch", "input_len", "output_len", "metric",
           "value", "unit", "notes"]
SOURCE = "tessera scripts/measure/h200_measure.py"
HARDWARE = "H200 SXM 141GB"
DATE = "2026-11-29"


def log(msg):
    print(f"[{time.time() - T0:7.1f}s] {msg}", flush=True)


def elapsed():
    return time.time() - T0


class Writer:
    def __init__(self, path, first_id, locator):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.f = open(path, "w", newline="")
        self.w = csv.writer(self.f)
        self.w.writerow(COLUMNS)
        self.f.flush()
        self.next_id = first_id
        self.locator = locator
        self.rows = []

    def row(self, section, software, model, metric, value_ms, notes, tp=1, batch="",
            input_len="", output_len=""):
        r = {
            "id": self.next_id, "source": SOURCE,
            "source_locator": f"{self.locator} ; section {section}",
            "software": software, "model": model, "precision": "bf16", "hardware": HARDWARE,
            "n_devices": 1, "tp": tp, "pp": 1, "ep": "", "batch": batch,
            "input_len": input_len, "output_len": output_len, "metric": metric,
            "value": f"{value_ms:.6g}", "unit": "ms", "notes": notes,
        }
        self.w.writerow([r[c] for c in COLUMNS])
        self.f.flush()
        os.fsync(self.f.fileno())
        self.rows.append(r)
        self.next_id += 1
        return r


# --------------------------------------------------------------------------- timing

class Bench:
    def __init__(self, dev):
        self.dev = dev
        self.cuda = dev.type == "cuda"
        if self.cuda:
            # 256 MiB read before each repeat: evicts L2 with clean lines (a write-based flush
            # would leave dirty lines whose write-back lands inside the timed region).
            self.flush_buf = torch.ones(64 * 1024 * 1024, dtype=torch.float32, device=dev)
            self.flush_out = torch.empty((), dtype=torch.float32, device=dev)

    def flush(self):
        if self.cuda:
            torch.sum(self.flush_buf, dim=0, out=self.flush_out)

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize()

    def time(self, fn, reps, warmup=3, flush=True, sync_each=False):
        """Return (median, min, max) of fn's time in ms."""
        for _ in range(warmup):
            fn()
        self.sync()
        ts = []
        if self.cuda:
            evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                   for _ in range(reps)]
            for s, e in evs:
                if sync_each:
                    torch.cuda.synchronize()
                if flush:
                    self.flush()
                s.record()
                fn()
                e.record()
            torch.cuda.synchronize()
            ts = [s.elapsed_time(e) for s, e in evs]
        else:
            for _ in range(reps):
                t = time.perf_counter()
                fn()
                ts.append((time.perf_counter() - t) * 1e3)
        ts.sort()
        return statistics.median(ts), ts[0], ts[-1]


def randn(shape, dev, scale=1.0, dtype=torch.bfloat16):
    t = torch.randn(shape, device=dev, dtype=dtype)
    if scale != 1.0:
        t.mul_(scale)
    return t


def stats_note(med, mn, mx, reps):
    return f"median of {reps} reps (min {mn:.4g}, max {mx:.4g} ms)"


# --------------------------------------------------------------------------- attention helpers

def sdpa(q, k, v, is_causal=False, gqa=False):
    """SDPA with GQA: enable_gqa=True when this torch has it, else repeat K/V heads."""
    if hasattr(F, "scaled_dot_product_attention"):
        if gqa and k.shape[1] != q.shape[1]:
            try:
                return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, enable_gqa=True)
            except (TypeError, RuntimeError):
                pass
        if k.shape[1] != q.shape[1]:
            rep = q.shape[1] // k.shape[1]
            k = k.repeat_interleave(rep, dim=1)
            v = v.repeat_interleave(rep, dim=1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
    # torch < 2.0 (local smoke test only): math attention
    if k.shape[1] != q.shape[1]:
        rep = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    s = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if is_causal:
        L, S = q.shape[-2], k.shape[-2]
        mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return (s.softmax(-1) @ v.float()).to(q.dtype)


def decode_attn_grouped(q, k, v):
    """One-token GQA decode as plain SDPA: the G query heads sharing a KV head become G query
    rows of that head (q [B,Hq,1,D] -> [B,Hkv,G,D]); exact for decode since no mask is needed."""
    B, Hq, _, D = q.shape
    Hkv = k.shape[1]
    o = sdpa(q.reshape(B, Hkv, Hq // Hkv, D), k, v)
    return o.reshape(B, Hq, 1, D)


def sdpa_backends():
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return None, {}
    out = {}
    for name in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION"):
        if hasattr(SDPBackend, name):
            out[name.lower()] = getattr(SDPBackend, name)
    return sdpa_kernel, out


# --------------------------------------------------------------------------- sections

def section_ceilings(W, B, dev, sw, smoke):
    # HBM: device-to-device copy; bytes moved = read + write.
    n = (1 << 20) if smoke else (1 << 30)  # elements of bf16: 2 GiB buffer on the GPU
    src = randn((n,), dev)
    dst = torch.empty_like(src)
    reps = 5 if smoke else 20
    med, mn, mx = B.time(lambda: dst.copy_(src), reps=reps, flush=True)
    nbytes = src.numel() * src.element_size()
    tbs = 2 * nbytes / (med * 1e-3) / 1e12
    W.row("ceilings", sw, "", "kernel_latency", med,
          f"copy bytes={nbytes} (dst.copy_(src), bf16, {nbytes / 2**30:.3g} GiB each way; "
          f"read+write={2 * nbytes}); achieved {tbs:.3f} TB/s counting read+write; "
          + stats_note(med, mn, mx, reps))
    log(f"copy {nbytes / 2**30:.2f} GiB: {med:.3f} ms -> {tbs:.3f} TB/s (read+write)")
    del src, dst

    # Peak bf16 GEMM on random data.
    s = 256 if smoke else 8192
    a = randn((s, s), dev)
    b = randn((s, s), dev)
    c = torch.empty((s, s), device=dev, dtype=torch.bfloat16)
    reps = 5 if smoke else 30
    med, mn, mx = B.time(lambda: torch.matmul(a, b, out=c), reps=reps, flush=False)
    tf = 2 * s ** 3 / (med * 1e-3) / 1e12
    W.row("ceilings", sw, "", "kernel_latency", med,
          f"M={s},K={s},N={s} ; peak-rate GEMM torch.matmul bf16 random normal data, fp32 accumulate; "
          f"achieved {tf:.1f} TFLOP/s; " + stats_note(med, mn, mx, reps))
    log(f"gemm {s}^3: {med:.3f} ms -> {tf:.1f} TFLOP/s")
    del a, b, c
    return {"copy_tbs": tbs, "gemm_tflops": tf}


def section_gemm(W, B, dev, sw, smoke):
    H, Hq, Hkv, D, FF = 8192, 64, 8, 128, 28672
    Ms = [1, 16, 64] if smoke else [1, 16, 64, 256, 1024, 4096]
    summary = []
    for tp in (1, 8):
        shapes = [
            ("qkv", H, (Hq + 2 * Hkv) * D // tp),
            ("o", Hq * D // tp, H),
            ("gate_up", H, 2 * FF // tp),
            ("down", FF // tp, H),
        ]
        for proj, K, N in shapes:
            if smoke:
                K, N = max(K // 64, 16), max(N // 64, 16)
            w_kn = randn((K, N), dev, 0.02)
            w_nk = w_kn.t().contiguous()
            for M in Ms:
                x = randn((M, K), dev)
                out = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
                flops = 2 * M * K * N
                nbytes = 2 * (M * K + K * N + M * N)
                for layout, fn in (
                    ("matmul x[M,K]@W[K,N]", lambda: torch.matmul(x, w_kn, out=out)),
                    ("F.linear x[M,K], W[N,K] (nn.Linear layout)", lambda: F.linear(x, w_nk)),
                ):
                    reps = 5 if smoke else 40
                    med, mn, mx = B.time(fn, reps=reps, flush=True)
                    tf = flops / (med * 1e-3) / 1e12
                    tbs = nbytes / (med * 1e-3) / 1e12
                    W.row("gemm", sw, "Llama-3.1-70B", "kernel_latency", med,
                          f"M={M},K={K},N={N} ; proj={proj} ; {layout} ; per-GPU shard for tp={tp}, "
                          f"one GPU, no communication ; {tf:.2f} TFLOP/s, {tbs:.3f} TB/s of "
                          f"min bytes ({nbytes}) ; cold L2 ; " + stats_note(med, mn, mx, reps),
                          tp=tp, batch=M)
                    summary.append((tp, proj, M, K, N, layout.split()[0], med, tf, tbs))
                del x, out
            log(f"gemm tp={tp} {proj} K={K} N={N}: " + ", ".join(
                f"M={s[2]}:{s[6] * 1e3:.1f}us/{s[7]:.0f}TF" for s in summary
                if s[0] == tp and s[1] == proj and s[5] == "matmul"))
            del w_kn, w_nk
    return summary


def section_attention(W, B, dev, sw, smoke):
    Hq, Hkv, D = 64, 8, 128
    Bs = [1, 8]
    Ls = [256, 1024] if smoke else [4096, 32768, 131072]
    sdpa_kernel, backends = sdpa_backends()
    summary = []

    # Correctness check of the two GQA formulations against an fp32 reference.
    q = randn((2, Hq, 1, D), dev)
    k = randn((2, Hkv, 512, D), dev)
    v = randn((2, Hkv, 512, D), dev)
    ref = sdpa(q.float(), k.float().repeat_interleave(8, 1), v.float().repeat_interleave(8, 1))
    errs = {}
    for name, o in (("enable_gqa", sdpa(q, k, v, gqa=True)), ("grouped", decode_attn_grouped(q, k, v))):
        errs[name] = ((o.float() - ref).norm() / ref.norm()).item()
    log(f"attention check rel err vs fp32: {errs}")
    errnote = "rel err vs fp32 ref: " + ", ".join(f"{a} {b:.1e}" for a, b in errs.items())

    for Bsz in Bs:
        for L in Ls:
            q = randn((Bsz, Hq, 1, D), dev)
            k = randn((Bsz, Hkv, L, D), dev)
            v = randn((Bsz, Hkv, L, D), dev)
            kv_bytes = 2 * k.numel() * k.element_size()
            variants = [
                ("enable_gqa=True, default backend", lambda: sdpa(q, k, v, gqa=True)),
                ("grouped (q viewed as [B,8,8,128]), default backend", lambda: decode_attn_grouped(q, k, v)),
            ]
            if sdpa_kernel is not None:
                for bname, be in backends.items():
                    def fn(be=be):
                        with sdpa_kernel(be):
                            return decode_attn_grouped(q, k, v)
                    variants.append((f"grouped, backend={bname}", fn))
            for vname, fn in variants:
                try:
                    fn()
                except Exception as e:  # backend not available for these inputs
                    log(f"attention B={Bsz} L={L} {vname}: skipped ({type(e).__name__}: {str(e)[:120]})")
                    continue
                reps = 5 if smoke else 30
                med, mn, mx = B.time(fn, reps=reps, flush=True)
                tbs = kv_bytes / (med * 1e-3) / 1e12
                W.row("attention", sw, "Llama-3.1-70B", "op_latency:attention_decode", med,
                      f"F.scaled_dot_product_attention decode, q [B={Bsz},64,1,128], K/V [B,8,{L},128] "
                      f"bf16 ; {vname} ; KV bytes={kv_bytes} -> {tbs:.3f} TB/s ; cold L2 ; "
                      f"{errnote} ; " + stats_note(med, mn, mx, reps),
                      batch=Bsz, input_len=L, output_len=1)
                summary.append((Bsz, L, vname, med, tbs))
                log(f"attn B={Bsz} L={L} {vname}: {med * 1e3:.1f} us ({tbs:.2f} TB/s)")
            del q, k, v
    return summary


# --------------------------------------------------------------------------- minimal Llama

class MiniLlama:
    """Llama decoder in plain PyTorch: RMSNorm, rotary (rotate_half, theta 5e5), GQA SDPA on a
    preallocated static KV cache, SwiGLU MLP. Fused QKV and gate+up weights (F.linear layout).
    Random bf16 weights, generated on the GPU."""

    def __init__(self, dev, hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336,
                 vocab=128256, max_pos=8200, theta=500000.0, eps=1e-5):
        self.dev, self.H, self.nl, self.nh, self.nkv = dev, hidden, layers, heads, kv_heads
        self.decode_attn = "grouped"
        self.hd, self.ffn, self.vocab, self.eps = hidden // heads, ffn, vocab, eps
        dt = torch.bfloat16
        s = 0.02
        self.embed = randn((vocab, hidden), dev, s)
        self.lm_head = randn((vocab, hidden), dev, s)
        self.norm = torch.ones(hidden, device=dev, dtype=dt)
        self.layers = []
        for _ in range(layers):
            self.layers.append(dict(
                ln1=torch.ones(hidden, device=dev, dtype=dt),
                wqkv=randn(((heads + 2 * kv_heads) * self.hd, hidden), dev, s),
                wo=randn((hidden, heads * self.hd), dev, s),
                ln2=torch.ones(hidden, device=dev, dtype=dt),
                wgu=randn((2 * ffn, hidden), dev, s),
                wd=randn((hidden, ffn), dev, s),
            ))
        inv = 1.0 / (theta ** (torch.arange(0, self.hd, 2, device=dev, dtype=torch.float32) / self.hd))
        f = torch.outer(torch.arange(max_pos, device=dev, dtype=torch.float32), inv)
        emb = torch.cat([f, f], dim=-1)
        self.cos, self.sin = emb.cos().to(dt), emb.sin().to(dt)

    def n_params(self):
        n = self.embed.numel() + self.lm_head.numel() + self.norm.numel()
        for l in self.layers:
            n += sum(t.numel() for t in l.values())
        return n

    def new_cache(self, batch, max_len):
        c = torch.empty((self.nl, 2, batch, self.nkv, max_len, self.hd), device=self.dev,
                        dtype=torch.bfloat16)
        c.normal_()  # random, not zeros, so attention reads real data
        return c

    def rms(self, x, w):
        if hasattr(F, "rms_norm"):
            return F.rms_norm(x, (x.shape[-1],), w, self.eps)
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * w

    @staticmethod
    def rope(x, cos, sin):
        h = x.shape[-1] // 2
        rot = torch.cat([-x[..., h:], x[..., :h]], dim=-1)
        return x * cos + rot * sin

    def forward(self, tokens, start, cache, last_only=True):
        """tokens [B,T] at positions start..start+T-1; writes K/V into cache; returns next ids."""
        Bsz, T = tokens.shape
        assert T == 1 or start == 0, "multi-token steps only as a prefill from position 0"
        nh, nkv, hd = self.nh, self.nkv, self.hd
        x = F.embedding(tokens, self.embed)
        cos = self.cos[start:start + T].view(1, 1, T, hd)
        sin = self.sin[start:start + T].view(1, 1, T, hd)
        for i, l in enumerate(self.layers):
            h = self.rms(x, l["ln1"])
            qkv = F.linear(h, l["wqkv"])
            q, k, v = qkv.split([nh * hd, nkv * hd, nkv * hd], dim=-1)
            q = self.rope(q.view(Bsz, T, nh, hd).transpose(1, 2), cos, sin)
            k = self.rope(k.view(Bsz, T, nkv, hd).transpose(1, 2), cos, sin)
            v = v.view(Bsz, T, nkv, hd).transpose(1, 2)
            kc, vc = cache[i, 0], cache[i, 1]
            kc[:, :, start:start + T] = k
            vc[:, :, start:start + T] = v
            K, V = kc[:, :, :start + T], vc[:, :, :start + T]
            if T == 1 and self.decode_attn == "grouped":
                o = decode_attn_grouped(q, K, V).reshape(Bsz, 1, nh * hd)
            elif T == 1:
                o = sdpa(q, K, V, gqa=True).reshape(Bsz, 1, nh * hd)
            else:
                o = sdpa(q, K, V, is_causal=True, gqa=True).transpose(1, 2).reshape(Bsz, T, nh * hd)
            x = x + F.linear(o, l["wo"])
            h = self.rms(x, l["ln2"])
            g, u = F.linear(h, l["wgu"]).chunk(2, dim=-1)
            x = x + F.linear(F.silu(g) * u, l["wd"])
        if last_only:
            x = x[:, -1:]
        x = self.rms(x, self.norm)
        logits = F.linear(x, self.lm_head)
        return logits.argmax(-1)


def section_llama8b(W, B, dev, sw_eager, sw_graph, smoke, budget_s, decode_attn="gqa"):
    if smoke:
        m = MiniLlama(dev, hidden=256, layers=2, heads=8, kv_heads=2, ffn=512, vocab=1000, max_pos=600)
        prefill_lens, ctxs, Bs, max_len = [16, 64], [16, 64, 128], [1, 4], 129
    else:
        t = time.time()
        m = MiniLlama(dev)
        B.sync()
        log(f"MiniLlama 8B built: {m.n_params() / 1e9:.3f} B params in {time.time() - t:.1f}s")
        prefill_lens, ctxs, Bs, max_len = [128, 2048, 8192], [128, 2048, 8192], [1, 16], 8193
    m.decode_attn = decode_attn
    model = "Llama-3.1-8B"
    dnote = ("decode attention = SDPA enable_gqa=True, default backend" if decode_attn == "gqa" else
             "decode attention = SDPA with q grouped per KV head ([B,8,4,128]), default backend "
             "(cuDNN on this machine: slower than flash for decode)")
    arch = ("minimal Llama decoder in plain PyTorch (not transformers): 32 layers, hidden 4096, "
            "32 q / 8 kv heads x128, SwiGLU ffn 14336, vocab 128256, fused QKV and gate+up, "
            "F.rms_norm, rotary theta 5e5 (llama3 rope scaling omitted: same cost), "
            "random bf16 weights, static preallocated KV cache (random contents)")
    summary = {}
    caches = {b: m.new_cache(b, max_len) for b in Bs}
    B.sync()
    gen = torch.Generator(device="cpu").manual_seed(0)

    # ---- prefill (TTFT): batch 1
    for L in prefill_lens:
        if elapsed() > budget_s:
            log("budget reached: skipping remaining prefill")
            break
        toks = torch.randint(0, m.vocab, (1, L), generator=gen).to(dev)
        reps = 3 if smoke else (10 if L <= 2048 else 5)
        med, mn, mx = B.time(lambda: m.forward(toks, 0, caches[1]), reps=reps, warmup=2,
                             flush=False, sync_each=True)
        W.row("llama8b", sw_eager, model, "ttft", med,
              f"prefill of {L} tokens, batch 1: embedding, 32 layers (causal SDPA enable_gqa), "
              f"final norm, lm_head on last token only, argmax; no tokenizer, no scheduler ; "
              f"{arch} ; " + stats_note(med, mn, mx, reps),
              batch=1, input_len=L, output_len=1)
        summary[("ttft", "eager", 1, L)] = med
        log(f"8B prefill L={L}: {med:.2f} ms")

    # ---- decode (TPOT): one step at context c (c tokens in cache, writes position c)
    graph_ok = dev.type == "cuda"
    for Bsz in Bs:
        for c in ctxs:
            if elapsed() > budget_s:
                log("budget reached: skipping remaining decode configs")
                break
            cache = caches[Bsz]
            toks = torch.randint(0, m.vocab, (Bsz, 1), generator=gen).to(dev)
            reps = 3 if smoke else 20
            step = lambda: m.forward(toks, c, cache)
            med, mn, mx = B.time(step, reps=reps, warmup=3, flush=False, sync_each=True)
            W.row("llama8b", sw_eager, model, "tpot", med,
                  f"one decode step, batch {Bsz}, {c} tokens already in the KV cache (attends {c + 1}); "
                  f"host-visible latency incl. launch overhead (sync before each rep) ; "
                  f"{dnote} ; {arch} ; "
                  + stats_note(med, mn, mx, reps),
                  batch=Bsz, input_len=c, output_len=1)
            summary[("tpot", "eager", Bsz, c)] = med
            log(f"8B decode eager B={Bsz} ctx={c}: {med:.3f} ms")
            if not graph_ok:
                continue
            try:
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        ref = step()
                torch.cuda.current_stream().wait_stream(s)
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    out = step()
                g.replay()
                torch.cuda.synchronize()
                same = bool(torch.equal(out, ref))
                medg, mng, mxg = B.time(g.replay, reps=reps, warmup=3, flush=False, sync_each=True)
                W.row("llama8b", sw_graph, model, "tpot", medg,
                      f"one decode step captured once in a CUDA graph (torch.cuda.CUDAGraph, one graph "
                      f"per (batch, context)), replay timed with sync before each rep; batch {Bsz}, "
                      f"{c} tokens in KV cache ; graph output == eager output: {same} ; {dnote} ; {arch} ; "
                      + stats_note(medg, mng, mxg, reps),
                      batch=Bsz, input_len=c, output_len=1)
                summary[("tpot", "graph", Bsz, c)] = medg
                log(f"8B decode graph B={Bsz} ctx={c}: {medg:.3f} ms (same tokens as eager: {same})")
                del g, out, ref
            except Exception as e:
                log(f"CUDA graph capture failed: {type(e).__name__}: {e}")
                traceback.print_exc()
                graph_ok = False
    del caches, m
    return summary


def section_hf(W, B, dev, sw, smoke, budget_s):
    """transformers LlamaForCausalLM (random weights) eager decode with a StaticCache."""
    import transformers
    from transformers import LlamaConfig, LlamaForCausalLM
    if smoke:
        kw = dict(hidden_size=256, num_hidden_layers=2, num_attention_heads=8, num_key_value_heads=2,
                  intermediate_size=512, vocab_size=1000)
        ctxs, Bs = [32], [1, 2]
    else:
        kw = dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                  intermediate_size=14336, vocab_size=128256)
        ctxs, Bs = [128, 2048, 8192], [1, 16]
    cfg = LlamaConfig(rope_theta=500000.0, max_position_embeddings=131072, tie_word_embeddings=False, **kw)
    try:
        cfg._attn_implementation = "sdpa"
    except Exception:
        pass
    prev = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with torch.device(dev):
            hf = LlamaForCausalLM(cfg)
    finally:
        torch.set_default_dtype(prev)
    hf = hf.to(device=dev, dtype=torch.bfloat16).eval()
    with torch.no_grad():
        for p in hf.parameters():
            if p.dim() >= 2:
                p.normal_(0.0, 0.02)
            else:
                p.fill_(1.0)
    B.sync()
    attn_impl = getattr(hf.config, "_attn_implementation", "?")
    log(f"transformers {transformers.__version__} LlamaForCausalLM built, attn={attn_impl}")
    from transformers import StaticCache
    sig = inspect.signature(StaticCache.__init__).parameters
    summary = {}
    for Bsz in Bs:
        for c in ctxs:
            if elapsed() > budget_s:
                log("budget reached: skipping remaining transformers configs")
                return summary
            args = dict(config=cfg, max_cache_len=c + 1, max_batch_size=Bsz, batch_size=Bsz,
                        device=dev, dtype=torch.bfloat16)
            cache = StaticCache(**{a: b for a, b in args.items() if a in sig})
            toks = torch.randint(0, cfg.vocab_size, (Bsz, 1), device=dev)
            cpos = torch.tensor([c], device=dev)
            pos = cpos.view(1, 1).expand(Bsz, 1)

            def step():
                with torch.no_grad():
                    return hf(input_ids=toks, past_key_values=cache, cache_position=cpos,
                              position_ids=pos, use_cache=True).logits.argmax(-1)
            reps = 3 if smoke else 10
            med, mn, mx = B.time(step, reps=reps, warmup=3, flush=False, sync_each=True)
            W.row("hf", sw + f" + transformers {transformers.__version__} eager", "Llama-3.1-8B", "tpot", med,
                  f"transformers LlamaForCausalLM built from LlamaConfig with random bf16 weights, "
                  f"attn_implementation={attn_impl}, StaticCache(max_cache_len={c + 1}, zero-filled: "
                  f"never prefilled), one decode step at cache_position {c}, batch {Bsz}, logits + argmax; "
                  f"sync before each rep ; " + stats_note(med, mn, mx, reps),
                  batch=Bsz, input_len=c, output_len=1)
            summary[("tpot", "hf", Bsz, c)] = med
            log(f"HF decode B={Bsz} ctx={c}: {med:.3f} ms")
            del cache
            if dev.type == "cuda":
                torch.cuda.empty_cache()
    return summary


# --------------------------------------------------------------------------- main

def env_info(dev):
    lines = [f"python {sys.version.split()[0]}", f"torch {torch.__version__} cuda {torch.version.cuda}"]
    if dev.type == "cuda":
        p = torch.cuda.get_device_properties(0)
        lines.append(f"device {p.name} {p.total_memory / 2**30:.1f} GiB, {p.multi_processor_count} SMs, "
                     f"cc {p.major}.{p.minor}")
        try:
            lines.append(subprocess.run(
                ["nvidia-smi", "--query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,"
                 "clocks.mem,power.limit,temperature.gpu", "--format=csv"],
                capture_output=True, text=True, timeout=20).stdout.strip())
        except Exception as e:
            lines.append(f"nvidia-smi failed: {e}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "measurements-h200.csv"))
    ap.add_argument("--first-id", type=int, default=1001)
    ap.add_argument("--budget-s", type=float, default=420.0,
                    help="soft wall-clock budget: later configs are skipped once it is passed")
    ap.add_argument("--smoke", action="store_true", help="tiny shapes (CPU allowed) to test the script")
    ap.add_argument("--decode-attn", choices=["gqa", "grouped"], default="gqa")
    ap.add_argument("--sections", default="ceilings,gemm,attention,llama8b,hf")
    args = ap.parse_args()

    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if dev.type != "cuda" and not args.smoke:
        sys.exit("no CUDA device; use --smoke for a CPU test")
    torch.manual_seed(0)
    info = env_info(dev)
    print(info, flush=True)
    outdir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "env.txt"), "w") as f:
        f.write(info + "\n")
    if dev.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
    tv = torch.__version__.split("+")[0]
    short = ".".join(tv.split(".")[:2])
    cu = torch.version.cuda or "cpu"
    sw_eager = f"PyTorch {short} eager ({tv}, CUDA {cu})"
    sw_graph = f"PyTorch {short} + CUDA graphs ({tv}, CUDA {cu})"
    locator = f"run {DATE} on one lent {torch.cuda.get_device_name(0) if dev.type == 'cuda' else 'CPU (smoke)'}"
    W = Writer(args.out, args.first_id, locator)
    B = Bench(dev)
    sections = args.sections.split(",")
    results = {}
    torch.set_grad_enabled(False)
    for name, fn in (
        ("ceilings", lambda: section_ceilings(W, B, dev, sw_eager, args.smoke)),
        ("gemm", lambda: section_gemm(W, B, dev, sw_eager, args.smoke)),
        ("attention", lambda: section_attention(W, B, dev, sw_eager, args.smoke)),
        ("llama8b", lambda: section_llama8b(W, B, dev, sw_eager, sw_graph, args.smoke, args.budget_s,
                                                args.decode_attn)),
        ("hf", lambda: section_hf(W, B, dev, sw_eager.replace(" eager", ""), args.smoke, args.budget_s)),
    ):
        if name not in sections:
            continue
        if elapsed() > args.budget_s:
            log(f"budget reached: skipping section {name}")
            continue
        log(f"=== section {name}")
        try:
            results[name] = fn()
        except Exception as e:
            log(f"section {name} FAILED: {type(e).__name__}: {e}")
            traceback.print_exc()
        if dev.type == "cuda":
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            log(f"max memory allocated so far {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB")

    # ---- final summary (the reply carries the end of the output)
    print("\n==== SUMMARY ====", flush=True)
    if "ceilings" in results:
        print(f"copy {results['ceilings']['copy_tbs']:.3f} TB/s (read+write) ; "
              f"GEMM peak {results['ceilings']['gemm_tflops']:.1f} TFLOP/s")
    if "gemm" in results:
        print("GEMM matmul layout: tp proj M -> us, TFLOP/s, TB/s")
        for tp, proj, M, K, N, lay, med, tf, tbs in results["gemm"]:
            if lay == "matmul":
                print(f"  tp{tp} {proj:8s} M={M:5d} K={K:5d} N={N:5d}: {med * 1e3:9.1f} us {tf:7.1f} TF {tbs:6.3f} TB/s")
    if "attention" in results:
        print("attention decode: B L variant -> us, TB/s")
        for Bsz, L, vname, med, tbs in results["attention"]:
            print(f"  B={Bsz} L={L:6d} {vname[:40]:40s}: {med * 1e3:9.1f} us {tbs:6.3f} TB/s")
    for key in ("llama8b", "hf"):
        if key in results:
            for k, v in results[key].items():
                print(f"  8B {k}: {v:.3f} ms")
    print(f"rows written: {len(W.rows)} to {args.out} ; total {elapsed():.1f}s", flush=True)


if __name__ == "__main__":
    main()
