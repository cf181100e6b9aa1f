#!/usr/bin/env python3
"""Fails when two CLI commands repeat an option preamble (docs/architecture.md "The
study façade"): the option table of a command is declared once (framework/app/study_options.hpp
for the scenario studies, common_options.hpp for the options every command shares), and a
command adds only its own options.

    option_preamble_check.py ROOT

reads each ROOT/framework/app/*_command.cpp, takes each command body's preamble (from
`int NAME_command(const Args& args) {` to its parse call: parse_or_help, parse_command_line or
parse_study_options), drops comments and splits it into statements (at `;`, whitespace
normalised), and reports every run of WINDOW (4) consecutive statements that occurs in two
commands, or twice in one, as `FILE:LINE: error: ...` naming the other place; exit 1 when any.
"""
import glob
import os
import re
import sys

WINDOW = 4
START = re.compile(r"^int (\w+_command)\(const Args& args\) \{")
PARSE = re.compile(r"\b(parse_or_help|parse_command_line|parse_study_options)\(")


def statements(path):
    """[(line, statement)] of every command preamble in `path`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    inside = False
    text, first = "", None
    for number, line in enumerate(lines, 1):
        if START.match(line):
            inside, text, first = True, "", None
            continue
        if not inside:
            continue
        code = re.sub(r"//.*$", "", line) if '"' not in line else line
        if PARSE.search(code):
            inside = False
            continue
        for ch in code + " ":
            if first is None and not ch.isspace():
                first = number
            text += ch
            if ch == ";":
                s = re.sub(r"\s+", " ", text).strip()
                if s and s != ";":
                    out.append((first, s))
                text, first = "", None
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    files = sorted(glob.glob(os.path.join(root, "framework", "app", "*_command.cpp")))
    if not files:
        print(f"{root}: error: no framework/app/*_command.cpp", file=sys.stderr)
        return 1
    seen = {}
    problems = []
    for path in files:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        st = statements(path)
        for i in range(len(st) - WINDOW + 1):
            key = tuple(s for _, s in st[i:i + WINDOW])
            where = (rel, st[i][0])
            if key in seen:
                other = seen[key]
                problems.append(f"{rel}:{where[1]}: error: the option preamble of {other[0]}:{other[1]} "
                                f"repeated ({WINDOW} statements from `{key[0][:60]}`): declare it once "
                                "(study_options.hpp, common_options.hpp)")
            else:
                seen.setdefault(key, where)
    for p in problems:
        print(p)
    print(f"option preamble check: {len(files)} commands, {len(problems)} repeated preamble(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
