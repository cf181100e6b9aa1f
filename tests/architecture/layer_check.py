#!/usr/bin/env python3
"""Fails when a lower layer includes a higher one (docs/architecture.md "The dependency rule").

    layer_check.py ROOT

scans every C++ file under ROOT/framework/src, ROOT/framework/app, ROOT/framework/include,
ROOT/plugins and ROOT/python/src (the Python module's bindings: a top layer like app), reads
each `#include "..."` and checks it against the layer order

    core < physics < host < scenario < eval < analysis < studies < report < app

(host and scenario form one tier; scenario reads plugin choices into host types, host never sees
a scenario). A file may include its own layer or a lower one, and the public SDK headers
`tessera/...` from anywhere. On top of the order:
  - core is dependency-free: no third-party header (yaml-cpp, spdlog, Boost, nlohmann, fmt);
  - analysis computes and returns data: it neither loads files through the scenario loader nor
    writes JSON;
  - the SDK (framework/include/tessera) includes only itself;
  - renderers take results: no header under framework/src/report includes eval/ (a header
    still on the old path is named in REPORT_EVAL_PENDING, which only shrinks, as below);
  - the two front ends are thin (docs/architecture.md "The study façade"): framework/app
    includes only studies/, report/, core/, the SDK and its own files; python/src only studies/,
    core/, the SDK and its own files. core/ is allowed like std: the dependency-free base
    (safe_text, cancellation, nearest_name, input files, program_location, progress) that every
    layer may use and that wires no study. A file still on the old path would be named in
    FRONT_END_PENDING (empty now; the list only shrinks: a listed file that has become thin is
    an error too, so it leaves the list);
  - a plugin includes only the SDK and the files of its own folder (its tests, in a `tests/`
    folder or named test_*.cpp, link the framework and are not held to this), except the one
    public model header of a plugin it falls back on and links as a library (PLUGIN_MODEL_HEADERS).
Each violation is printed as `FILE:LINE: error: ...` naming the include; exit 1 when any.
"""
import os
import re
import sys

# A plugin that would include another plugin's model header, by folder. Empty: a plugin that falls
# back on another reaches it through the SDK (its descriptor's fallback, created by the host).
PLUGIN_MODEL_HEADERS = {}

LAYERS = ["core", "physics", "host", "scenario", "eval", "analysis", "studies", "report", "app"]
RANK = {name: i for i, name in enumerate(LAYERS)}
# Headers generated into the build tree (cmake/*.hpp.in), reachable from every framework layer.
GENERATED = {"tessera_build_paths.hpp", "module_paths.hpp"}  # module_paths: python/module_paths.hpp.in
THIRD_PARTY = ("yaml-cpp/", "spdlog/", "boost/", "nlohmann/", "fmt/")
# (layer, include) pairs refused although the order allows them.
FORBIDDEN = {
    ("analysis", "scenario/scenario_loader.hpp"): "analysis does not load files: the caller passes loaded data in",
}
FORBIDDEN_SYSTEM = {
    ("analysis", "nlohmann/json.hpp"): "analysis does not render (JSON belongs in report/)",
}
# What a front end may include beside its own files and the SDK (tessera/...). core/ counts like
# the standard library: it is the dependency-free base every layer stands on (safe_text,
# cancellation, nearest_name, input files, program_location, progress) and wires no study.
FRONT_ENDS = {
    "framework/app": ("studies", "report", "core"),
    "python/src": ("studies", "core"),
}
# Front-end files still wired to the lower layers by hand. Empty since the study façade moved every
# command onto studies/; it only shrinks: a file is never added, and a listed file that has
# become thin is an error (it leaves the list).
FRONT_END_PENDING = set()
# report/ headers that still take eval's types directly. Empty: every renderer
# takes a studies/ result (studies/study_description.hpp); the list stays so that the rule's
# shrink-only mechanics keep their test.
REPORT_EVAL_PENDING = set()
SOURCE_EXT = (".hpp", ".cpp", ".h", ".cc", ".ipp")
QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANGLED = re.compile(r"^\s*#\s*include\s+<([^>]+)>")


def layer_of(rel):
    """The layer of a file (path relative to the root), or None when it is not layered."""
    parts = rel.split("/")
    if parts[:2] == ["framework", "src"] and len(parts) > 3:
        return parts[2]
    if parts[:2] == ["framework", "app"]:
        return "app"
    if parts[:2] == ["python", "src"]:
        return "app"  # the Python module's bindings: a top layer beside the executable
    if parts[:2] == ["framework", "include"]:
        return "sdk"
    if parts[0] == "plugins":
        return "plugin"
    return None


def is_plugin_test(rel):
    parts = rel.split("/")
    return "tests" in parts[1:-1] or parts[-1].startswith("test_")


def front_end_of(rel):
    for folder in FRONT_ENDS:
        if rel.startswith(folder + "/"):
            return folder
    return None


def check_file(root, rel, problems):
    layer = layer_of(rel)
    if layer is None:
        return
    here = os.path.dirname(os.path.join(root, rel))
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    front = front_end_of(rel)
    thick = []  # the front-end rule's violations of this file
    report_eval = []  # the report-header rule's
    for number, line in enumerate(lines, 1):
        def fail(why):
            problems.append(f"{rel}:{number}: error: {why}")

        m = ANGLED.match(line)
        if m:
            inc = m.group(1)
            if layer == "core" and inc.startswith(THIRD_PARTY):
                fail(f"#include <{inc}>: core is dependency-free (std and the SDK only)")
            if (layer, inc) in FORBIDDEN_SYSTEM:
                fail(f"#include <{inc}>: {FORBIDDEN_SYSTEM[(layer, inc)]}")
            continue
        m = QUOTED.match(line)
        if not m:
            continue
        inc = m.group(1)
        top = inc.split("/")[0]
        if top == "tessera" and "/" in inc:
            continue  # the public SDK, open to every layer and every plugin
        if layer == "sdk":
            fail(f'#include "{inc}": the SDK includes only tessera/... headers')
            continue
        if layer == "plugin":
            if is_plugin_test(rel):
                continue
            target = os.path.normpath(os.path.join(here, inc))
            folder = os.path.normpath(os.path.join(root, *rel.split("/")[:3]))
            if inc in PLUGIN_MODEL_HEADERS.get("/".join(rel.split("/")[:3]), ()):
                continue  # the public model header of the plugin it falls back on (linked as a library)
            if not (target.startswith(folder + os.sep) and os.path.exists(target)):
                fail(f'#include "{inc}": a plugin includes only the SDK (tessera/...) and its own files')
            continue
        if "/" not in inc:
            if inc in GENERATED or os.path.exists(os.path.join(here, inc)):
                continue
            fail(f'#include "{inc}": not a file of this folder nor a layer/header path')
            continue
        if top not in RANK:
            fail(f'#include "{inc}": "{top}/" is no layer ({" < ".join(LAYERS)})')
            continue
        if RANK[top] > RANK[layer]:
            fail(f'#include "{inc}": {layer} may not include {top} ({" < ".join(LAYERS)})')
            continue
        if (layer, inc) in FORBIDDEN:
            fail(f'#include "{inc}": {FORBIDDEN[(layer, inc)]}')
            continue
        if layer == "report" and top == "eval" and rel.endswith(".hpp"):
            report_eval.append((number, f'#include "{inc}": a report header takes results, not eval/ (studies/)'))
        if front and top not in FRONT_ENDS[front]:
            allowed = ", ".join(t + "/" for t in FRONT_ENDS[front])
            thick.append((number, f'#include "{inc}": {front} includes only {allowed}, the SDK and its own files'))
    if front and rel not in FRONT_END_PENDING:
        problems.extend(f"{rel}:{number}: error: {why}" for number, why in thick)
    elif front and not thick:
        problems.append(f"{rel}:1: error: thin now: remove it from FRONT_END_PENDING")
    if rel not in REPORT_EVAL_PENDING:
        problems.extend(f"{rel}:{number}: error: {why}" for number, why in report_eval)
    elif not report_eval:
        problems.append(f"{rel}:1: error: takes results now: remove it from REPORT_EVAL_PENDING")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = []
    scanned = 0
    for top in ("framework/src", "framework/app", "framework/include", "plugins", "python/src"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_EXT):
                    rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                    check_file(root, rel, problems)
                    scanned += 1
    for p in problems:
        print(p)
    if scanned == 0:
        print(f"{root}: error: no C++ file found under framework/ or plugins/", file=sys.stderr)
        return 1
    print(f"layer check: {scanned} files, {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
