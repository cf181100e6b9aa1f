#!/usr/bin/env python3
"""Results digest (the schema and layering refactor's acceptance: it changes no result).

  capture: results_digest.py capture TESSERA REPO DIGEST
      runs every study of every shipped scenario and writes DIGEST (gzip text; zcat to read it):
      one line per scalar of every JSON result, `<scenario> <command> <json.path> = <value>`,
      numbers rounded to 12 significant digits, keys sorted, list order kept; the checkout's own
      absolute path inside a string (a file named in a reason) is written `<repo>`.
  check:   results_digest.py check TESSERA REPO DIGEST
      captures again and compares the values path by path with DIGEST. A value
      that differs or a path that disappeared is an error; a path that only the new output has
      (a new JSON field) is listed and accepted.

Studies per scenario (scenarios/*.yaml as shipped when the digest was captured):
  run --json; explain --json of run's best configuration; compare --json;
  sensitivity --parallelism --hardware --json; explore --json (scenarios with sweep.hardware);
  a serving scenario (workload.mode: serve) has serve --json alone;
and validate-data --json of data/measurements-h200.csv, data/measurements.csv and
data/measurements-2024-2026.csv (lines of a study whose input is absent are skipped by `check`,
with a note). Digests captured before the public CSVs moved into data/ name those two studies
`validate-data:shared/<file>`; `check` reads such keys as `validate-data:data/<file>`
(LABEL_RENAMES), so the same rows are compared.

`points` lists (the HTML report's evaluated configurations, docs/report.md) are left out: they
repeat the studies' own numbers and would multiply the digest's size by twenty.

Release build: the digest was captured from the Release build (GCC -O2); other builds may differ
in the last bits.
"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

# Keys of `explain`'s configuration string, in the order the JSON best object names them.
CONFIG_KEYS = ["tp", "cp", "pp", "dp", "ep", "tp_placement", "cp_placement", "cp_ring_variant",
               "kv_shard_mode", "ffn_shard_scope"]

# Scalars that describe the run rather than its results (they change without a result changing).
# `command` (docs/report.md): the command line that produced a document, with the scenario's
# absolute path as this script passes it (os.path.join(repo, ...), which need not be the
# realpath that <repo> replaces) and the binary's invocation: how it was run, not a result.
# `provenance` (docs/report.md "Provenance"): the build and plugin libraries that produced a
# document (commit, build type, library paths and digests): where a result came from, not a result.
IGNORED_KEYS = {"version", "tessera_version", "elapsed_s", "wall_s", "threads", "path", "file",
                "scenario_path", "machine_path", "model_path", "plugin_path", "library", "command",
                "provenance"}


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        if isinstance(v, float) and v != v:
            return "nan"
        return "%.12g" % v
    return json.dumps(v, ensure_ascii=True)


REPO_TOKEN = "<repo>"  # the checkout's absolute path inside string values (a file named in a reason)
ROOT = {"path": None}


def flatten(node, path, out):
    if isinstance(node, dict):
        for k in sorted(node):
            if k in IGNORED_KEYS:
                continue
            # `points` (the HTML report's sample of every evaluated configuration) repeats what
            # the studies computed; its size would swamp the digest. Its count fields stay.
            if k == "points" and isinstance(node[k], list):
                continue
            flatten(node[k], path + "." + k if path else k, out)
    elif isinstance(node, list):
        if not node:
            out.append((path, "[]"))
        for i, v in enumerate(node):
            flatten(v, "%s[%d]" % (path, i), out)
    else:
        if isinstance(node, str) and ROOT["path"]:
            node = node.replace(ROOT["path"], REPO_TOKEN)
        out.append((path, fmt(node)))


def run_json(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, TESSERA_PLUGIN_PATH=""))
    if r.returncode != 0:
        sys.stderr.write("FAILED (rc %d): %s\n%s\n" % (r.returncode, " ".join(cmd), r.stderr[-4000:]))
        raise SystemExit(1)
    return json.loads(r.stdout)


def config_string(best):
    return ",".join("%s=%s" % (k, best[k]) for k in CONFIG_KEYS if k in best)


def has_hardware_sweep(path):
    text = open(path).read()
    return re.search(r"^\s+hardware:", text, re.M) is not None


def is_serve_scenario(path):
    text = open(path).read()
    return re.search(r"mode:\s*serve\b", text) is not None


def studies(tessera, repo):
    """Yields (study label, command) in a fixed order; explain's command depends on run's result."""
    sdir = os.path.join(repo, "scenarios")
    for name in sorted(f[:-5] for f in os.listdir(sdir) if f.endswith(".yaml")):
        path = os.path.join(sdir, name + ".yaml")
        if is_serve_scenario(path):
            # A serving scenario has one study, `tessera serve`; the step commands
            # refuse it. Its values are new (accepted by `check` as new output).
            # One with sweep.hardware is explore's: the serving study at every point.
            if has_hardware_sweep(path):
                yield name + " explore", [tessera, "explore", path, "-q", "--json", "-"]
            else:
                yield name + " serve", [tessera, "serve", path, "-q", "--json", "-"]
            continue
        run = [tessera, "run", path, "-q", "--json", "-"]
        yield name + " run", run
        best = LAST["run"].get("best")
        if isinstance(best, dict) and "tp" in best:
            yield name + " explain", [tessera, "explain", path, "-q", "--config", config_string(best),
                                      "--json", "-"]
        yield name + " compare", [tessera, "compare", path, "-q", "--json", "-"]
        yield name + " sensitivity", [tessera, "sensitivity", path, "-q", "--parallelism", "--hardware",
                                      "--json", "-"]
        if has_hardware_sweep(path):
            yield name + " explore", [tessera, "explore", path, "-q", "--json", "-"]
    csvs = [("data/" + f, os.path.join(repo, "data", f))
            for f in ("measurements-h200.csv", "measurements.csv", "measurements-2024-2026.csv")]
    for label, csv in csvs:
        if os.path.exists(csv):
            yield "validate-data:" + label + " validate-data", [tessera, "validate-data", csv, "-q",
                                                               "--json", "-"]


LAST = {}

# Study labels of older digests -> today's (the public CSVs were read from ../shared/data before
# they were copied into data/): an old key is compared with the same study under its new label.
LABEL_RENAMES = {
    "validate-data:shared/measurements.csv": "validate-data:data/measurements.csv",
    "validate-data:shared/measurements-2024-2026.csv": "validate-data:data/measurements-2024-2026.csv",
}


def renamed(key):
    label, sep, rest = key.partition(" ")
    return LABEL_RENAMES.get(label, label) + sep + rest


def capture_lines(tessera, repo):
    lines = []
    for label, cmd in studies(tessera, repo):
        data = run_json(cmd)
        LAST[label.split()[-1]] = data
        flat = []
        flatten(data, "", flat)
        lines += ["%s %s = %s" % (label, p, v) for p, v in flat]
    return lines


def parse(lines):
    out = {}
    for ln in lines:
        key, _, value = ln.partition(" = ")
        out[key] = value
    return out


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("capture", "check"):
        sys.stderr.write(__doc__)
        return 2
    mode, tessera, repo, digest = sys.argv[1:]
    ROOT["path"] = os.path.realpath(repo)
    lines = capture_lines(tessera, repo)
    if mode == "capture":
        with gzip.open(digest, "wt", compresslevel=9) as f:
            f.write("\n".join(lines) + "\n")
        print("%d values written to %s" % (len(lines), digest))
        return 0
    old = {renamed(k): v for k, v in parse(gzip.open(digest, "rt").read().splitlines()).items()}
    new = parse(lines)
    present = {" ".join(k.split()[:2]) for k in new}
    errors, skipped, added = [], set(), 0
    for k, v in old.items():
        study = " ".join(k.split()[:2])
        if study not in present:
            skipped.add(study)
        elif k not in new:
            errors.append("missing: %s (was %s)" % (k, v))
        elif new[k] != v:
            errors.append("changed: %s: %s -> %s" % (k, v, new[k]))
    added = sum(1 for k in new if k not in old)
    for s in sorted(skipped):
        print("note: study not run here (its input is absent): %s" % s)
    if added:
        print("note: %d values only in the new output (new JSON fields) accepted" % added)
    if errors:
        print("%d of %d values differ from the digest:" % (len(errors), len(old)))
        for e in errors[:int(os.environ.get("DIGEST_SHOW", "60"))]:
            print("  " + e)
        return 1
    print("all %d values of the digest are unchanged" % (len(old) - sum(
        1 for k in old if " ".join(k.split()[:2]) in skipped)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
