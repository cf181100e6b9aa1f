"""Scenario.run and .explore in an isolated worker process (studies/plugin_isolation.hpp,
docs/plugin-guide.md "What the host guarantees"): with a plugin from outside the shipped folder
the whole study runs in one `tessera` worker, so this interpreter never creates the plugin; one
that segfaults, aborts or calls exit() raises tessera.PluginError naming the plugin, the call and
the configuration, and the interpreter goes on; the results are those of one process; a thread
the plugin leaves running cannot crash the interpreter at its exit."""
import pytest
import yaml

import tessera
from conftest import BUILD

BROKEN = BUILD / "test-plugins" / "broken"
SWEEP = {"tp": [1, 2, 4, 8], "cp": [1, 2, 4], "pp": [1, 2], "dp": [1, 2, 4]}


def broken(small, fault):
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    return tessera.Scenario.load(small, set={"plugins.latency": {"name": "broken_latency", "fault": fault},
                                             "sweep.parallelism": SWEEP},
                                 plugin_path=[BROKEN])


@pytest.mark.parametrize("fault, how", [
    ("time_step_segv", "died by signal 11 (Segmentation fault) while running the whole study"),
    ("time_step_abort", "died by signal 6 (Aborted) while running the whole study"),
    ("time_step_exit", "ended by exit() from plugin code (exit status 3) while running the whole study"),
])
def test_a_plugin_that_kills_its_process_is_a_plugin_error(small, fault, how):
    s = broken(small, fault)
    with pytest.raises(tessera.PluginError) as e:
        s.run(threads=2)
    text = str(e.value)
    assert text.startswith("a worker process (pid ")
    assert how in text
    assert f"in plugin latency/broken_latency 0.0.1 ({BROKEN}/libtessera_latency_broken_latency.so), " \
           "call time_step, configuration cp=" in text
    assert tessera.Scenario.load(small).run(threads=1).best is not None  # the interpreter goes on


def test_isolated_runs_give_the_in_process_result(small):
    s = broken(small, "none")
    isolated, here = s.run(threads=2), s.run(threads=2, isolate=False)
    assert isolated.raw["best"] == here.raw["best"]
    assert isolated.raw["counts"] == here.raw["counts"]
    assert isolated.raw["pareto"] == here.raw["pareto"]
    assert isolated.raw["points"] == here.raw["points"]
    # A scenario from a dict travels to the workers as text, a shipped one when asked.
    tree = yaml.safe_load(small.read_text())
    d = tessera.Scenario.from_dict(tree, base_dir=small.parent)
    assert d.run(threads=2, isolate=True).raw["best"] == d.run(threads=2).raw["best"]
    with pytest.raises(TypeError, match="isolate"):
        s.run(isolate="yes")


def interrupted_after(call, seconds=1.0):
    """Runs call() and sends this process SIGINT `seconds` later (its workers then inside a hanging
    plugin call): how long KeyboardInterrupt took to come after the signal."""
    import os
    import signal
    import threading
    import time
    stamp = {}

    def fire():
        time.sleep(seconds)
        stamp["t"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=fire)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        call()
    elapsed = time.monotonic() - stamp["t"]
    timer.join()
    return elapsed


def workers_left(fault):
    """The worker processes of this interpreter's studies whose command names `fault`."""
    import os
    return [p for p in os.listdir("/proc") if p.isdigit() and _names_fault(p, fault)]


def test_ctrl_c_stops_workers_stuck_in_a_plugin_call(small):
    """A plugin call that never returns in a worker: Ctrl-C raises KeyboardInterrupt within a
    second, the workers are gone, and the interpreter goes on."""
    s = broken(small, "time_step_hang")
    assert interrupted_after(lambda: s.run(threads=2)) < 1.0
    assert workers_left("time_step_hang") == []
    assert tessera.Scenario.load(small).run(threads=1).best is not None


def _names_fault(pid, fault):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read()
    except OSError:
        return False
    return b"TESSERA_UNIT_WORKER=" in env and fault.encode() in cmd


def test_a_plugin_that_crashes_in_its_factory_never_runs_in_this_interpreter(small):
    """Scenario.load creates no plugin; an isolated study creates them in its worker, and an
    in-process one (evaluate, isolate=False) has a worker create them first."""
    s = broken(small, "create_abort")
    with pytest.raises(tessera.PluginError) as e:
        s.run(threads=1)
    assert "died by signal 6 (Aborted) while running the whole study" in str(e.value)
    assert "in plugin latency/broken_latency 0.0.1 (" in str(e.value) and "call create" in str(e.value)
    for here in (lambda: s.evaluate({"tp": [1]}, isolate=False), lambda: s.run(isolate=False)):
        with pytest.raises(tessera.PluginError) as e:
            here()
        assert "died by signal 6 (Aborted) while preparing the study" in str(e.value)
        assert "call create" in str(e.value)
    assert tessera.Scenario.load(small).run(threads=1).best is not None  # the interpreter goes on


def test_a_thread_a_plugin_leaves_running_cannot_crash_the_interpreter_at_exit(small):
    """create_leak's thread uses the library's static object, which the interpreter's exit frees:
    in this process it crashed every exit; in the worker it ends with it."""
    import os
    import subprocess
    import sys
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    code = ("import tessera, sys; s = tessera.Scenario.load(sys.argv[1], set={'plugins.latency': "
            "{'name': 'broken_latency', 'fault': 'create_leak'}}, plugin_path=[sys.argv[2]]); "
            "print(s.run(threads=2).best is not None, len(s.evaluate(s.configurations())['valid']) > 0)")
    for _ in range(3):
        env = dict(os.environ, PYTHONPATH=str(BUILD / "python"))
        p = subprocess.run([sys.executable, "-c", code, str(small), str(BROKEN)], capture_output=True, text=True,
                           timeout=60, env=env)
        assert (p.returncode, p.stdout) == (0, "True True\n"), p.stderr


def test_a_scenario_text_larger_than_the_environment_reaches_its_workers(small):
    """A dict's text goes to the workers in a memory file, not the environment (128 KiB a value)."""
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    tree = yaml.safe_load(small.read_text())
    tree["description"] = "x" * 65_500  # each within scalar.bytes (64 KiB), together over 128 KiB
    tree["name"] = "y" * 65_500
    tree["plugins"]["latency"] = {"name": "broken_latency", "fault": "none"}
    s = tessera.Scenario.from_dict(tree, base_dir=small.parent, plugin_path=[BROKEN])
    assert s.run(threads=2).raw["best"] == s.run(threads=2, isolate=False).raw["best"]


def test_explore_isolates_a_step_scenarios_hardware_points(small):
    hardware = {"machine.pe.hbm.bandwidth": ["1 TB/s", "2 TB/s"], "machine.pe.flops.bf16": ["500 TFLOP/s", "1000 TFLOP/s"]}
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")

    def load(fault):
        return tessera.Scenario.load(small, set={"plugins.latency": {"name": "broken_latency", "fault": fault},
                                                 "sweep.parallelism": SWEEP, "sweep.hardware": hardware},
                                     plugin_path=[BROKEN])

    with pytest.raises(tessera.PluginError) as e:
        load("time_step_segv").explore(threads=2, sensitivity=False)
    assert "died by signal 11 (Segmentation fault) while running the whole study" in str(e.value)
    assert "call time_step, configuration cp=" in str(e.value)
    s = load("none")
    isolated, here = s.explore(threads=2), s.explore(threads=2, isolate=False)
    assert isolated.raw["points"] == here.raw["points"]
    assert isolated.raw["pareto"] == here.raw["pareto"]
