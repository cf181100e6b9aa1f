"""The worked examples of docs/python.md run end to end; their plots (matplotlib, the Agg
backend) are written under the build folder: build/python/examples/*.png."""
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

OUT = BUILD / "python" / "examples"


def _run(script, out, tmp_path):
    OUT.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    env = {"PYTHONPATH": str(BUILD / "python"), "PATH": "/usr/bin:/bin", "MPLCONFIGDIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, str(ROOT / "docs/examples/python" / script), str(out)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_batch_sweep_example(tmp_path):
    out = OUT / "batch_sweep.png"
    stdout = _run("batch_sweep.py", out, tmp_path)
    assert "batch 64:" in stdout
    if "no plot" not in stdout:
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_serving_frontier_example(tmp_path):
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    out = OUT / "serving_frontier.png"
    stdout = _run("serving_frontier.py", out, tmp_path)
    for machine in ("DGX-H100", "DGX-H200", "DGX-B200"):
        assert f"{machine}: best within the SLO" in stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
