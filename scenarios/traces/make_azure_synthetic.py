#!/usr/bin/env python3
"""Writes azure-code-synthetic.csv: a made-up trace in the columns of the Azure LLM inference
trace 2023 (AzureLLMInferenceTrace_code.csv: TIMESTAMP,ContextTokens,GeneratedTokens). Synthetic:
no row comes from the real trace. 300 requests, Poisson arrivals at 4 requests/s (seed 37),
prompt and output lengths lognormal (median 1500 / 30 tokens, sigma 0.8 / 0.9, clamped to
[16, 7936] / [2, 1024]), the shape of the code trace's long prompts and short answers."""
import datetime
import math
import random

rng = random.Random(37)
t = datetime.datetime(2023, 11, 16, 18, 15, 46)
rows = ["TIMESTAMP,ContextTokens,GeneratedTokens"]
for _ in range(300):
    t += datetime.timedelta(microseconds=round(rng.expovariate(4.0) * 1e6))
    ctx = min(7936, max(16, round(math.exp(math.log(1500) + 0.8 * rng.gauss(0, 1)))))
    gen = min(1024, max(2, round(math.exp(math.log(30) + 0.9 * rng.gauss(0, 1)))))
    rows.append("%s.%07d,%d,%d" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond * 10, ctx, gen))
open("azure-code-synthetic.csv", "w").write("\n".join(rows) + "\n")
