"""A scenario with a large parallelism sweep, for the checkpoint and memory tests: the default
scenario's model (Llama-3.1-70B decode at 128K) on the cube-sip machine enlarged to 2048
systems, every discrete knob at every value, cp over 1..n_cp (bench/bench_common.hpp's
synthetic grid: n_cp 22 gives about 10^6 valid configurations, 770 about 10^7)."""
import os


def _head(name, source, objectives):
    """The lines both scenarios open with: the default scenario's model, machine and workload."""
    return f"""schema_version: 1
kind: scenario
name: {name}
model: {os.path.join(source, 'models/llama3.1-70b.yaml')}
machine: {os.path.join(source, 'machines/cube-sip.yaml')}
workload: {{mode: decode, context: 128K, batch: 1}}
plugins: {{latency: overlap, memory: standard, search: exhaustive, objectives: [{objectives}]}}
"""


def write(path, source_dir, n_cp, n_pp=80, n_dp=4):
    rng = lambda n: "[" + ", ".join(str(i) for i in range(1, n + 1)) + "]"
    with open(path, "w") as f:
        f.write(_head(f"sweep-{n_cp}", source_dir, "latency, pes, efficiency") + f"""sweep:
  parallelism:
    cp: {rng(n_cp)}
    tp: [1, 2, 4, 8, 16, 32, 64]
    pp: {rng(n_pp)}
    dp: {rng(n_dp)}
    kv_shard_mode: [split, replicate]
    ffn_shard_scope: [TP, TP+CP, TP+CP+DP]
    tp_placement: [cube, system]
    cp_placement: [sip, cube]
    cp_ring_variant: [kv, qoml, tree]
""")
    return ["--set", "machine.levels.system.fanout=2048", "--max-configs", "100000000"]


def write_explore(path, source, n=50):
    """An explore grid of n x n hardware points (HBM bandwidth 1-8 TB/s x cube link bandwidth
    100-1000 GB/s) over a small parallelism sweep: more than 1000 points for n > 31, so that only
    the fastest and the frontier are listed (every point in --csv)."""
    vals = lambda a, b, unit: "[" + ", ".join(f"{a + (b - a) * i / (n - 1):.4g} {unit}" for i in range(n)) + "]"
    with open(path, "w") as f:
        f.write(_head(f"explore-{n}x{n}", source, "latency, cost, pes") + f"""sweep:
  parallelism:
    cp: [1, 2, 4, 8, 16]
    tp: [1, 2, 4, 8, 16]
    pp: [1, 2, 4, 8]
    dp: [1]
  hardware:
    machine.pe.hbm.bandwidth: {vals(1, 8, 'TB/s')}
    machine.levels.cube.link_bw: {vals(100, 1000, 'GB/s')}
report: {{top: 10}}
""")
