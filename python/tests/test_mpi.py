"""`mpirun -np N python3 script.py` (docs/mpi.md "Python"): importing the module never
initialises MPI; the first study joins the job; every rank ends with the results one process
gives, for 1, 2 and 4 ranks. Skipped where the build has no MPI or mpirun is missing."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, CLI, ROOT

HERE = os.path.dirname(os.path.abspath(__file__))


def mpi_built() -> bool:
    out = subprocess.run([str(CLI), "--version"], capture_output=True, text=True).stdout
    return "MPI: built in" in out


pytestmark = pytest.mark.skipif(shutil.which("mpirun") is None or not mpi_built(),
                                reason="no mpirun, or this build has no MPI (TESSERA_MPI)")


def mpirun(ranks: int, args):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    cmd = (["mpirun", *root, "--oversubscribe", "--bind-to", "none", "--mca", "btl", "self,vader",
            "--mca", "btl_vader_single_copy_mechanism", "none", "-np", str(ranks)] if ranks else [])
    env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
    return subprocess.run(cmd + [sys.executable, *args], capture_output=True, text=True, env=env, timeout=300)


def test_every_rank_ends_with_the_one_process_results():
    script = [os.path.join(HERE, "mpi_script.py"), str(ROOT / "scenarios")]
    one = mpirun(0, script)
    assert one.returncode == 0, one.stderr
    assert one.stdout.split() == ["rank", "0", one.stdout.split()[2]]
    digest = one.stdout.split()[2]
    for ranks in (1, 2, 4):
        r = mpirun(ranks, script)
        assert r.returncode == 0, r.stderr
        # mpirun forwards the ranks' output as it comes (unbuffered: a line's pieces apart), so one
    # rank's line may cut into another's: each says one f-string, read by pattern.
        said = sorted(re.findall(r"rank (\d+) ([0-9a-f]{16})", r.stdout))
        assert said == sorted((str(k), digest) for k in range(ranks)), r.stdout


def test_import_never_initialises_mpi():
    probe = ("import ctypes, ctypes.util, tessera\n"
             "lib = ctypes.CDLL(ctypes.util.find_library('mpi') or 'libmpi.so.40')\n"
             "flag = ctypes.c_int(-1)\n"
             "lib.MPI_Initialized(ctypes.byref(flag))\n"
             "print(f\"{'initialised' if flag.value else 'not initialised'} {tessera.mpi_rank()}\")\n")
    r = mpirun(2, ["-c", probe])
    assert r.returncode == 0, r.stderr
    # Not initialised on either rank, and each knows its rank from its launcher already.
    said = sorted(re.findall(r"(not initialised|initialised) (\d)", r.stdout))
    assert said == [("not initialised", "0"), ("not initialised", "1")], r.stdout


def test_a_failed_study_raises_on_every_rank(tmp_path):
    # A plan that fails on rank 0 is not a partial result on the others (docs/mpi.md "Python").
    scenario = tmp_path / "broken.yaml"
    scenario.write_text(
        "schema_version: 1\nkind: scenario\nname: broken\n"
        f"model: {ROOT}/models/llama3.1-8b.yaml\nmachine: {ROOT}/machines/dgx-h100.yaml\n"
        "workload: {mode: decode, context: 4K, batch: 1}\n"
        "sweep:\n  parallelism: {tp: [1, 2, 4, 8], pp: [1, 2, 4, 8], dp: [1, 2, 4]}\n"
        "plugins: {latency: {name: broken_latency, fault: time_step_std}, memory: standard, search: exhaustive}\n")
    probe = ("import sys, tessera\n"
             "s = tessera.Scenario.load(sys.argv[1], plugin_path=[sys.argv[2]])\n"
             "try:\n"
             "    s.run(threads=1)\n"
             "    print(f'rank {tessera.mpi_rank()} result')\n"
             "except tessera.PluginError as e:\n"
             "    print(f\"rank {tessera.mpi_rank()} raised {'exploded' in str(e)}\")\n")
    r = mpirun(2, ["-c", probe, str(scenario), str(BUILD / "test-plugins" / "broken")])
    assert r.returncode == 0, r.stderr
    # mpirun may join two ranks' lines (print writes the text and its newline apart): exact words.
    said = sorted(re.findall(r"rank (\d) (result|raised True|raised False)", r.stdout))
    assert said == [("0", "raised True"), ("1", "raised True")], r.stdout
