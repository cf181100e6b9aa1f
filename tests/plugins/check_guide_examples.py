#!/usr/bin/env python3
"""docs/plugin-guide.md's worked examples are real files: every code block preceded by
`<!-- file: PATH -->` must equal the file at PATH (relative to the source root) byte for byte,
and the example of each kind must be among them.
Usage: check_guide_examples.py SOURCE_ROOT [--fix]   (--fix copies the files into the guide)"""
import pathlib
import re
import sys

REQUIRED = [
    "docs/examples/plugins/CMakeLists.txt",
    "docs/examples/out-of-tree-plugin/example_latency.cpp",
    "docs/examples/plugins/example_memory.cpp",
    "docs/examples/plugins/example_search.cpp",
    "docs/examples/plugins/example_objective.cpp",
]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    guide_path = root / "docs/plugin-guide.md"
    guide = guide_path.read_text(encoding="utf-8")
    if "--fix" in sys.argv[2:]:
        def copy(m: "re.Match[str]") -> str:
            f = root / m.group(1)
            return m.group(0) if not f.is_file() else m.group(0).replace(m.group(2), f.read_text(encoding="utf-8"), 1)
        guide = re.sub(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)^```$", copy, guide, flags=re.S | re.M)
        guide_path.write_text(guide, encoding="utf-8")
    blocks = re.findall(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)^```$", guide, re.S | re.M)
    problems = []
    seen = set()
    for path, text in blocks:
        seen.add(path)
        f = root / path
        if not f.is_file():
            problems.append(f"{path}: the guide shows it, but there is no such file")
            continue
        if f.read_text(encoding="utf-8") != text:
            problems.append(f"{path}: the guide's block differs from the file (copy the file into the guide)")
    for path in REQUIRED:
        if path not in seen:
            problems.append(f"{path}: not shown in the guide with a `<!-- file: {path} -->` block")
    for p in problems:
        print(f"docs/plugin-guide.md: error: {p}", file=sys.stderr)
    print(f"{len(blocks)} marked blocks checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
