"""The worked example of docs/python.md runs end to end (its plot when matplotlib is there)."""
import subprocess
import sys

from conftest import BUILD, ROOT


def test_batch_sweep_example(tmp_path):
    out = tmp_path / "sweep.png"
    env = {"PYTHONPATH": str(BUILD / "python"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, str(ROOT / "docs/examples/python/batch_sweep.py"), str(out)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "batch 64:" in proc.stdout
    if "no plot" not in proc.stdout:
        assert out.stat().st_size > 1000
