#!/usr/bin/env python3
"""The house rules of docs/architecture.md "House rules", checked on the sources (no build).

    house_rules.py ROOT [--allowlist FILE] [--print-allowlist]

  - sizes: a function in framework/src is at most 80 lines and a file at most 500, except the
    entries of the allow-list (tests/architecture/house_rules_allowlist.txt), each recorded at
    its length today. The list only shrinks: an entry whose function or file grew past its
    recorded length, shrank below it (lower the entry), fell within the limit or no longer
    exists is an error, and the list may hold at most MAX_FUNCTIONS functions and MAX_FILES
    files (ceilings lowered as entries leave, never raised);
  - rooms: no folder of framework/src holds more than 30 source files (headers and sources
    together), and every folder holding sources has its line in docs/architecture.md "What each
    folder is responsible for" (and every line there names a folder that exists);
  - listed sources: every .cpp of framework/src is named once in framework/sources.cmake (the
    library's explicit source lists), and every name there is a file;
  - no plugin special to the host: no string literal in the code of framework/src names a shipped
    plugin (`latency/calibrated`, or a name that is no ordinary word of the domain: calibrated,
    roofline, sram_tier, exhaustive, two_stage), and no code compares with any shipped plugin's
    name (`== "static"`), outside host/plugin_defaults.hpp; what a plugin does beside its kind it
    declares in its descriptor (its roles);
  - no tracker references: comments and docs name no issue, deliverable or session-stop
    numbers (docs cite docs). Another project's issue is cited with its name before the word:
    `nccl-tests issue #309`, `sgl-project/sglang issue #10083`.

Function extents come from universal-ctags (scripts/install-deps.sh installs it): a function is
its lines from the signature to the closing brace, lambdas inside it included.
Each violation is printed as `FILE[:LINE]: error: ...`; exit 1 when any.
"""
import os
import re
import shutil
import subprocess
import sys

FUNCTION_LIMIT = 80
FILE_LIMIT = 500
FOLDER_LIMIT = 30
# Ceilings of the allow-list: lowered as entries leave, never raised.
MAX_FUNCTIONS = 29
MAX_FILES = 2
SOURCE_EXT = (".cpp", ".hpp", ".h", ".cc", ".ipp")
# Where comments and docs are read for tracker references.
PROSE_ROOTS = ("framework", "plugins", "python", "bench", "tests", "docs", "scenarios", "machines",
               "models", "cmake", "scripts", ".ci")
PROSE_FILES = ("README.md", "CMakeLists.txt", "Makefile")
PROSE_EXT = SOURCE_EXT + (".md", ".py", ".sh", ".cmake", ".txt", ".yaml", ".yml", ".expect", ".in")
SKIP_DIRS = {"build", "build-asan", "node_modules", "third_party", "__pycache__", ".git"}
# This checker's own fixtures name violations on purpose.
SKIP_PROSE = ("tests/architecture/house_rules_test.py",)
TRACKER = re.compile(
    r"(?P<before>[\w./-]*)\s*\b(?P<ref>[Ii]ssues? ?#?\d+|[Dd]eliver(?:able)?s? ?#?\d+|"
    r"\bparts? \d+\b|\bstop \d+\b)")
ARCH_ROW = re.compile(r"^\| `(framework/src/[^`]*?)/?` \|", re.M)


def walk(root, top, exts):
    base = os.path.join(root, top)
    if os.path.isfile(base):
        yield top
        return
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(exts):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def read_allowlist(path):
    functions, files, problems = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if parts[0] == "function" and len(parts) == 4 and parts[3].isdigit():
                functions[(parts[1], parts[2])] = int(parts[3])
            elif parts[0] == "file" and len(parts) == 3 and parts[2].isdigit():
                files[parts[1]] = int(parts[2])
            else:
                problems.append(f"{path}:{n}: error: expected `function PATH NAME LINES` or "
                                f"`file PATH LINES`, got `{line}`")
    return functions, files, problems


def function_lengths(root):
    """{(path, name): (lines, first line)} of every function in framework/src; overloads of one
    name in one file count as their longest."""
    ctags = shutil.which("ctags")
    if not ctags:
        sys.exit("house rules: universal-ctags not found (scripts/install-deps.sh --test installs it)")
    paths = list(walk(root, "framework/src", SOURCE_EXT))
    out = subprocess.run([ctags, "--languages=C++", "--language-force=C++", "--kinds-C++=f",
                          "--fields=+ne", "-x", "--_xformat=%{end}|%{line}|%N|%F", *paths],
                         cwd=root, check=True, capture_output=True, text=True).stdout
    lengths = {}
    for line in out.splitlines():
        end, start, name, path = line.split("|", 3)
        if name.startswith("__anon") or not end.isdigit():
            continue  # a lambda: counted in the function around it
        n = int(end) - int(start) + 1
        key = (path, name)
        if key not in lengths or n > lengths[key][0]:
            lengths[key] = (n, int(start))
    return lengths


def check_sizes(root, allowlist, errors):
    functions, files, problems = read_allowlist(allowlist)
    errors += problems
    rel_list = os.path.relpath(allowlist, root)
    lengths = function_lengths(root)
    for (path, name), (n, line) in sorted(lengths.items()):
        allowed = functions.pop((path, name), None)
        if allowed is None:
            if n > FUNCTION_LIMIT:
                errors.append(f"{path}:{line}: error: function {name} is {n} lines (at most "
                              f"{FUNCTION_LIMIT}; split it, the allow-list takes no new entries)")
        elif n <= FUNCTION_LIMIT:
            errors.append(f"{rel_list}: error: {path} {name} is {n} lines now: remove its entry")
        elif n > allowed:
            errors.append(f"{path}:{line}: error: function {name} grew to {n} lines (its "
                          f"allow-list entry says {allowed}; entries never grow)")
        elif n < allowed:
            errors.append(f"{rel_list}: error: {path} {name} is {n} lines now: lower its entry "
                          f"from {allowed} to {n}")
    for (path, name) in sorted(functions):
        errors.append(f"{rel_list}: error: {path} {name}: no such function any more: remove it")
    for path in walk(root, "framework/src", SOURCE_EXT):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            n = sum(1 for _ in f)
        allowed = files.pop(path, None)
        if allowed is None:
            if n > FILE_LIMIT:
                errors.append(f"{path}: error: {n} lines (at most {FILE_LIMIT}; split the file)")
        elif n <= FILE_LIMIT:
            errors.append(f"{rel_list}: error: {path} is {n} lines now: remove its entry")
        elif n != allowed:
            verb = "grew to" if n > allowed else "is now"
            errors.append(f"{path}: error: {verb} {n} lines (its allow-list entry says {allowed}"
                          + ("; entries never grow)" if n > allowed else ": lower it)"))
    for path in sorted(files):
        errors.append(f"{rel_list}: error: {path}: no such file any more: remove it")
    count_f, count_files = len(read_allowlist(allowlist)[0]), len(read_allowlist(allowlist)[1])
    if count_f > MAX_FUNCTIONS:
        errors.append(f"{rel_list}: error: {count_f} functions listed (at most {MAX_FUNCTIONS})")
    if count_files > MAX_FILES:
        errors.append(f"{rel_list}: error: {count_files} files listed (at most {MAX_FILES})")


def check_rooms(root, errors):
    src = os.path.join(root, "framework/src")
    folders = set()
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        n = sum(1 for f in filenames if f.endswith(SOURCE_EXT))
        rel = os.path.relpath(dirpath, root)
        if n:
            folders.add(rel)
        if n > FOLDER_LIMIT:
            errors.append(f"{rel}/: error: {n} source files (at most {FOLDER_LIMIT}: split the "
                          "folder into rooms of one concept each)")
    with open(os.path.join(root, "docs/architecture.md"), encoding="utf-8") as f:
        rows = set(ARCH_ROW.findall(f.read()))
    for rel in sorted(folders - rows):
        errors.append(f"docs/architecture.md: error: {rel}/ has no line in \"What each folder is "
                      "responsible for\"")
    for rel in sorted(rows - folders):
        errors.append(f"docs/architecture.md: error: the line for {rel}/ names no folder of sources")


# (listing, its folder, the folders whose .cpp files it lists, the lists to add a file to)
SOURCE_LISTS = (
    ("framework/sources.cmake", "framework", ("src", "app"),
     "its room's line of tessera_sdk_sources, tessera_host_sources or tessera_app_sources"),
    ("python/CMakeLists.txt", "python", ("src",), "tessera_py_sources"),
)


def check_sources(root, errors):
    for listing, base, folders, where in SOURCE_LISTS:
        if not os.path.exists(os.path.join(root, listing)):
            continue
        with open(os.path.join(root, listing), encoding="utf-8") as f:
            text = re.sub(r"#.*", "", f.read())
        pattern = r"\b(?:" + "|".join(folders) + r")/[\w/.-]+\.cpp\b"
        lists = re.findall(r"set\(\w+_sources\b(.*?)\)", text, re.S)  # the lists, not other mentions
        named = [n for block in lists for n in re.findall(pattern, block)]
        files = {os.path.relpath(p, base) for d in folders
                 for p in walk(root, f"{base}/{d}", (".cpp",))}
        seen = set()
        for name in named:
            if name in seen:
                errors.append(f"{listing}: error: {name} is listed twice")
            seen.add(name)
            if name not in files:
                errors.append(f"{listing}: error: {name}: no such file")
        for name in sorted(files - seen):
            errors.append(f"{listing}: error: {base}/{name} is not listed (add it to {where})")


# Shipped plugin names that are also ordinary words of the domain (a metric, "measured" values,
# a "static" batch): the literal alone does not name the plugin. Their ids (`latency/measured`)
# are still checked.
COMMON_WORDS = {"measured", "overlap", "standard", "random", "static", "aggregated"}
DEFAULTS_FILE = "framework/src/host/plugin_defaults.hpp"


def string_literals(line):
    """The string literals of a line of C++ code, comments left out."""
    out, i, n = [], 0, len(line)
    while i < n:
        if line.startswith("//", i):
            break
        if line[i] == "'":  # a character literal: skip it
            j = line.find("'", i + 1 + (line[i + 1:i + 2] == "\\"))
            i = j + 1 if j > 0 else n
            continue
        if line[i] == '"':
            j, buf = i + 1, []
            while j < n and line[j] != '"':
                buf.append(line[j:j + 2] if line[j] == "\\" else line[j])
                j += 2 if line[j] == "\\" else 1
            out.append("".join(buf))
            i = j + 1
            continue
        i += 1
    return out


def check_plugin_names(root, errors):
    plugins = os.path.join(root, "plugins")
    ids, names = [], []
    for kind in sorted(os.listdir(plugins)) if os.path.isdir(plugins) else []:
        if not os.path.isdir(os.path.join(plugins, kind)):
            continue
        for name in sorted(os.listdir(os.path.join(plugins, kind))):
            if os.path.isdir(os.path.join(plugins, kind, name)):
                ids.append(f"{kind}/{name}")
                if kind != "objective" and name not in COMMON_WORDS:
                    names.append(name)
    pattern = re.compile(r"(?<![\w/-])(" + "|".join(re.escape(x) for x in ids + names) + r")(?![\w-])")
    # A shipped plugin's name compared with (`name == "static"`): the host treating that plugin
    # specially, ordinary word or not.
    # Objectives are left out: their names are also the metrics' (ttft, tpot) and a kind's (latency).
    every = sorted({i.split("/")[1] for i in ids if not i.startswith("objective/")}, key=len, reverse=True)
    compared = re.compile(r'[=!]=\s*"(' + "|".join(re.escape(x) for x in every) + r')"|"(' +
                          "|".join(re.escape(x) for x in every) + r')"\s*[=!]=')
    for path in walk(root, "framework/src", SOURCE_EXT):
        if path == DEFAULTS_FILE or not ids:
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.lstrip().startswith(("//", "*", "/*")):
                    continue
                code = line.split("//", 1)[0]
                m = compared.search(code)
                if m:
                    errors.append(f"{path}:{n}: error: compares with \"{m.group(1) or m.group(2)}\", a "
                                  f"plugin's name: the host names plugins only in {DEFAULTS_FILE}")
                    continue
                for text in string_literals(line):
                    m = pattern.search(text)
                    if m:
                        errors.append(f"{path}:{n}: error: \"{m.group(1)}\" names a plugin: the host names "
                                      f"plugins only in {DEFAULTS_FILE} (a role is declared in the "
                                      "plugin's descriptor)")


def check_prose(root, errors):
    paths = [p for top in PROSE_ROOTS + PROSE_FILES for p in walk(root, top, PROSE_EXT)]
    paths += [p for p in walk(root, "data", (".md",))]
    for path in paths:
        if path.startswith(SKIP_PROSE):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(lines, 1):
            for m in TRACKER.finditer(line):
                before = m.group("before")
                if m.group("ref").lower().startswith("issue") and ("-" in before or "/" in before):
                    continue  # another project's issue, cited with its name
                errors.append(f"{path}:{n}: error: \"{m.group('ref')}\": no tracker numbers in "
                              "comments and docs (cite the doc or say what it is)")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    root = argv[1]
    allowlist = os.path.join(os.path.dirname(os.path.abspath(__file__)), "house_rules_allowlist.txt")
    if "--allowlist" in argv:
        allowlist = argv[argv.index("--allowlist") + 1]
    if "--print-allowlist" in argv:
        for (path, name), (n, _) in sorted(function_lengths(root).items()):
            if n > FUNCTION_LIMIT:
                print(f"function {path} {name} {n}")
        for path in walk(root, "framework/src", SOURCE_EXT):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                n = sum(1 for _ in f)
            if n > FILE_LIMIT:
                print(f"file {path} {n}")
        return 0
    errors = []
    check_sizes(root, allowlist, errors)
    check_rooms(root, errors)
    check_sources(root, errors)
    check_plugin_names(root, errors)
    check_prose(root, errors)
    for e in errors:
        print(e)
    print(f"house rules: {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
