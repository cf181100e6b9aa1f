#!/usr/bin/env python3
"""The study facade's refactor check (docs/architecture.md "Studies: plan, work units,
merge"): every command's `--json`, byte for byte.

  capture: json_identity.py capture TESSERA REPO DIR
      runs every study of every shipped scenario (the list of tests/golden/results/
      results_digest.py: run, explain of run's best, compare, sensitivity, explore, serve) and
      the commands that read no scenario (validate-data of the shipped CSVs, calibrate of the
      H200 CSV, plugins, schema --json-schema of each kind), and writes each one's stdout, as
      printed, to DIR/<label>.json (DIR is created).
  diff:    json_identity.py diff TESSERA REPO DIR
      runs the same command lines again and compares each output with DIR's byte for byte;
      prints the first differing line of each study that differs and exits 1 if any does.

Three things describe the checkout rather than the study and are masked in both before
comparing (docs/report.md "Provenance"): `provenance.tessera.commit` (the checkout's commit),
each plugin's `sha256` (its library's digest: a rebuilt library under a bumped SDK interface
version differs by design), and where the checkout lies: the build folder (TESSERA's parent's
parent: the binary and plugin paths) and the repository (scenario paths on command lines) are
written as <build> and <repo>, so that a capture taken in one checkout compares with another
(the capture records its two roots in DIR/_roots.json; a capture without it is read with the
current ones). Nothing else is masked: the command line, the points list and every number must
be identical.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "results"))
import results_digest  # noqa: E402  (its study list and its LAST slot)

MASKS = [
    (re.compile(r'"commit": "[0-9a-f]*"'), '"commit": "<commit>"'),
    (re.compile(r'"sha256": "[0-9a-f]{64}"'), '"sha256": "<sha256>"'),
]


def masked(text, roots=None):
    for rx, rep in MASKS:
        text = rx.sub(rep, text)
    if roots:
        text = text.replace(roots["build"] + "/", "<build>/").replace(roots["repo"] + "/", "<repo>/")
    return text


def studies(tessera, repo):
    import json
    for label, cmd in results_digest.studies(tessera, repo):
        yield label, cmd
        if label.endswith(" run"):
            out = run(cmd)
            results_digest.LAST["run"] = json.loads(out)
    yield "calibrate h200", [tessera, "calibrate", os.path.join(repo, "data", "measurements-h200.csv"), "--folds", "in-sample",
                             "-q", "--json", "-"]
    yield "plugins", [tessera, "plugins", "--json"]
    for kind in ("model", "machine", "scenario"):
        yield "schema " + kind, [tessera, "schema", kind, "--json-schema"]


CACHE = {}


def run(cmd):
    key = tuple(cmd)
    if key not in CACHE:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, TESSERA_PLUGIN_PATH=""))
        if r.returncode != 0:
            sys.stderr.write("FAILED (rc %d): %s\n%s\n" % (r.returncode, " ".join(cmd), r.stderr[-4000:]))
            raise SystemExit(1)
        CACHE[key] = r.stdout
    return CACHE[key]


def file_name(label):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label) + ".json"


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("capture", "diff"):
        sys.stderr.write(__doc__)
        return 2
    mode, tessera, repo, folder = sys.argv[1:]
    tessera = os.path.abspath(tessera)
    repo = os.path.abspath(repo)
    import json
    roots = {"build": os.path.dirname(os.path.dirname(tessera)), "repo": repo}
    roots_file = os.path.join(folder, "_roots.json")
    if mode == "capture":
        os.makedirs(folder, exist_ok=True)
        with open(roots_file, "w") as f:
            json.dump(roots, f)
    captured = json.load(open(roots_file)) if os.path.exists(roots_file) else roots
    differ = 0
    count = 0
    for label, cmd in studies(tessera, repo):
        out = masked(run(cmd), roots)
        path = os.path.join(folder, file_name(label))
        count += 1
        if mode == "capture":
            with open(path, "w") as f:
                f.write(out)
            continue
        if not os.path.exists(path):
            print("%s: not in %s (new study)" % (label, folder))
            differ += 1
            continue
        before = masked(open(path).read(), captured)
        if before != out:
            differ += 1
            a, b = before.splitlines(), out.splitlines()
            line = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            print("%s: differs at line %d\n  before: %s\n  after:  %s" % (
                label, line + 1, a[line][:200] if line < len(a) else "<end>",
                b[line][:200] if line < len(b) else "<end>"))
    print("%d studies %s%s" % (count, "captured in " + folder if mode == "capture" else "compared",
                               "" if mode == "capture" else (", %d differ" % differ)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
