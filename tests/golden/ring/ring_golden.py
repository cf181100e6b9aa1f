#!/usr/bin/env python3
"""Legacy-ring golden runs (the collective algorithms' acceptance: with
`collectives: {algorithm: ring}` on every level, every number equals the parent commit's, bit for
bit).

  capture: ring_golden.py capture TESSERA REPO OUTDIR [--ring]
      runs `tessera run --json` and `tessera explain --json` (best configuration) of every
      scenario listed in SCENARIOS, writing OUTDIR/<scenario>.run.json / .explain.json.
      --ring forces `collectives: {algorithm: ring}` on every level of the scenario's machine
      (--set machine.levels.<name>.collectives.algorithm=ring).
  check:   ring_golden.py check TESSERA REPO GOLDENDIR
      captures with --ring into a temporary folder and compares every number (and string) of
      the golden files with the new output: equal floats bit for bit (JSON round-trip repr),
      keys only in the new output ignored (new fields: the algorithm, ...), keys missing from
      it an error.
The golden files were captured from commit e075809 (the parent of the collective algorithms'
first commit).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# Every scenario shipped at e075809.
SCENARIOS = [
    "deepseek-v3-decode-32k-h200",
    "gpt3-175b-decode-2k-a100",
    "llama3.1-405b-decode-64k-gb200",
    "llama3.1-70b-compare-latency-models",
    "llama3.1-70b-decode-128k-attention",
    "llama3.1-70b-decode-128k",
    "llama3.1-70b-decode-4k-h100",
    "llama3.1-70b-hbm-vs-links-explore",
    "llama3.1-70b-throughput-h100",
    "llama3.1-8b-prefill-8k-h100",
    "mixtral-8x7b-decode-32k-h100",
    "qwen3-235b-prefill-16k-b200",
]

# Scenarios whose search is two_stage: its exactness fix (made with the collective algorithms)
# changes which configurations it evaluates, on purpose and not through the collectives; their
# golden runs use the exhaustive search, with which the parent and this tree evaluate the same grid.
SEARCH_EXHAUSTIVE = {"llama3.1-70b-hbm-vs-links-explore", "llama3.1-70b-throughput-h100"}

# Keys of `explain`'s configuration string, in the order the JSON best object names them.
CONFIG_KEYS = ["tp", "cp", "pp", "dp", "ep", "tp_placement", "cp_placement", "cp_ring_variant",
               "kv_shard_mode", "ffn_shard_scope"]


def machine_levels(repo, scenario_path):
    """Level names of the scenario's machine file (levels are addressed by name in --set)."""
    text = open(scenario_path).read()
    m = re.search(r"^machine:\s*(\S+)", text, re.M)
    machine = os.path.normpath(os.path.join(os.path.dirname(scenario_path), m.group(1)))
    return re.findall(r"^\s*- \{name:\s*([A-Za-z0-9_-]+)", open(machine).read(), re.M)


def ring_sets(repo, scenario_path):
    out = []
    for lv in machine_levels(repo, scenario_path):
        out += ["--set", "machine.levels.%s.collectives.algorithm=ring" % lv]
    return out


def config_string(best):
    parts = []
    for k in CONFIG_KEYS:
        if k in best:
            parts.append("%s=%s" % (k, best[k]))
    return ",".join(parts)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write("FAILED: %s\n%s\n" % (" ".join(cmd), r.stderr[-4000:]))
        raise SystemExit(1)


def capture(tessera, repo, outdir, ring):
    os.makedirs(outdir, exist_ok=True)
    for s in SCENARIOS:
        path = os.path.join(repo, "scenarios", s + ".yaml")
        extra = ring_sets(repo, path) if ring else []
        # Captured when every listed scenario ran overlap, the reference physics; the real-machine
        # scenarios now name calibrated (the realistic default), so the reference is named here.
        extra += ["--set", "plugins.latency=overlap"]
        # Captured when the default space offered TP+CP+DP (attention data parallelism) to dense models
        # too; now only MoE models get it unless listed (docs/scenario-format.md "The sweep"), so the
        # scenarios are run in the space they were captured in.
        extra += ["--set", "sweep.parallelism.ffn_shard_scope=[TP, TP+CP, TP+CP+DP]"]
        if s in SEARCH_EXHAUSTIVE:
            extra += ["--set", "plugins.search=exhaustive"]
        run_json = os.path.join(outdir, s + ".run.json")
        run([tessera, "run", path, "-q", "--json", run_json] + extra)
        compact(run_json)
        best = json.load(open(run_json)).get("best")
        if isinstance(best, dict) and "tp" in best:
            explain_json = os.path.join(outdir, s + ".explain.json")
            run([tessera, "explain", path, "-q", "--config", config_string(best), "--json", explain_json] +
                extra)
            compact(explain_json)


def compact(path):
    """Rewrites a JSON file without indentation (floats keep their round-trip repr)."""
    with open(path) as f:
        data = json.load(f)
    # Where the result came from (commit, paths, digests) and the command line that wrote it
    # (a temporary folder's name) are not numbers to pin.
    if isinstance(data, dict):
        data.pop("provenance", None)
        data.pop("command", None)
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")


def compare(a, b, path, errors):
    if isinstance(a, dict):
        if not isinstance(b, dict):
            errors.append("%s: expected an object, found %r" % (path, b))
            return
        for k, v in a.items():
            if k not in b:
                errors.append("%s.%s: missing" % (path, k))
            else:
                compare(v, b[k], path + "." + k, errors)
    elif isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            errors.append("%s: expected a list of %d, found %s" % (path, len(a), type(b).__name__ if not isinstance(b, list) else len(b)))
            return
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, "%s[%d]" % (path, i), errors)
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(b, (int, float)) and float(a).hex() == float(b).hex()):
            errors.append("%s: expected %r, found %r" % (path, a, b))
    elif a != b:
        errors.append("%s: expected %r, found %r" % (path, a, b))


def check(tessera, repo, golden):
    with tempfile.TemporaryDirectory() as tmp:
        capture(tessera, repo, tmp, True)
        errors = []
        files = sorted(f for f in os.listdir(golden) if f.endswith(".json"))
        if len(files) < len(SCENARIOS):
            errors.append("only %d golden files in %s" % (len(files), golden))
        for f in files:
            new = os.path.join(tmp, f)
            if not os.path.exists(new):
                errors.append("%s: not produced" % f)
                continue
            compare(json.load(open(os.path.join(golden, f))), json.load(open(new)), f, errors)
        for e in errors[:200]:
            print(e)
        print("%d golden files, %d differences" % (len(files), len(errors)))
        return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "capture":
        capture(sys.argv[2], sys.argv[3], sys.argv[4], "--ring" in sys.argv[5:])
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
