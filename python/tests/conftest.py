"""Shared paths of the pytest suite: the source tree, the build tree (TESSERA_BUILD_DIR, set by
CTest; default ./build) and its `tessera` executable."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("TESSERA_BUILD_DIR", ROOT / "build")).resolve()
CLI = BUILD / "bin" / "tessera"
if str(BUILD / "python") not in sys.path:
    sys.path.insert(0, str(BUILD / "python"))

SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def same_document(raw, cli_doc) -> bool:
    """A Python result's document equals the CLI's --json but for `command` (the Python call
    there, the command line here; docs/report.md) and `provenance`'s plugin list (docs/python.md)."""
    import json

    a, b = json.loads(json.dumps(raw)), dict(cli_doc)
    assert a.pop("command", "").startswith("python: tessera.")
    assert b.pop("command", "").startswith("tessera ")
    # `provenance`: the same build; the module's registry is shared by the process, so its
    # plugins are every library loaded so far, the CLI's among them (same path and digest).
    pa, pb = a.pop("provenance"), b.pop("provenance")
    assert pa["tessera"] == pb["tessera"]
    assert all(p in pa["plugins"] for p in pb["plugins"]), (pa["plugins"], pb["plugins"])
    return a == b


def is_serve(path: pathlib.Path) -> bool:
    import yaml

    return (yaml.safe_load(path.read_text()).get("workload") or {}).get("mode") == "serve"


STEP_SCENARIOS = [p for p in SCENARIOS if not is_serve(p)]


@pytest.fixture(scope="session")
def cli():
    if not CLI.exists():
        pytest.skip(f"{CLI} not built")

    def run(*args):
        return subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, cwd=ROOT)

    return run


@pytest.fixture
def small(tmp_path):
    """The smallest shipped scenario's path."""
    return ROOT / "scenarios" / "llama3.1-8b-decode-4k-h100.yaml"
