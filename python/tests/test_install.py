"""`cmake --install` puts a package that finds its plugins and data under its own prefix (not
the build tree, not python3's folder)."""
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD


def test_installed_package_finds_its_prefix(tmp_path):
    if not (BUILD / "CMakeCache.txt").exists() or shutil.which("cmake") is None:
        pytest.skip("no build tree to install")
    prefix = tmp_path / "prefix"
    proc = subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(prefix)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    site = next(prefix.glob("lib/python3*/*-packages"))
    code = ("import tessera; s = tessera.Scenario.load(); r = s.run(threads=1); "
            "print(tessera.plugin_search_path()); print(s.file); print(r.counts.valid)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == repr([str(prefix / "lib" / "tessera" / "plugins")])
    assert lines[1] == str(prefix / "share" / "tessera" / "scenarios" / "llama3.1-70b-decode-128k.yaml")
    assert int(lines[2]) > 0
