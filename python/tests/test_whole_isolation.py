"""Scenario.serve, .sensitivity, .explain, tessera.compare and a serve scenario's .explore run
whole in one isolated `tessera` worker when a plugin comes from outside the shipped folder
(studies/plugin_isolation.hpp WorkerShare::whole, docs/plugin-guide.md "What the host
guarantees"): a plugin that segfaults, aborts or calls exit() there raises tessera.PluginError
naming the plugin and the call, the interpreter goes on, and the results are those of one
process."""
import pytest

import tessera
from conftest import BUILD, ROOT
from test_isolation import interrupted_after, workers_left

BROKEN = BUILD / "test-plugins" / "broken"
SERVE = ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100-poisson.yaml"
SMALL_SERVE = {"sweep.parallelism": {"tp": [2, 4, 8], "pp": [1, 2], "tp_placement": ["gpu"]},
               "sweep.serving": {"batch": [8, 32], "token_budget": ["2K"]},
               "serving.requests.count": 200}


def load(path, fault, more=None):
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    return tessera.Scenario.load(path, set={"plugins.latency": {"name": "broken_latency", "fault": fault},
                                            **(more or {})}, plugin_path=[BROKEN])


def without_command(result):
    """A result's document without its command and provenance (the plugins a process has loaded
    so far, which in this interpreter include other tests')."""
    d = dict(result.raw)
    d.pop("command", None)
    d.pop("provenance", None)
    return d


@pytest.mark.parametrize("fault, how", [
    ("time_step_segv", "died by signal 11 (Segmentation fault) while running the whole study"),
    ("time_step_abort", "died by signal 6 (Aborted) while running the whole study"),
    ("time_step_exit", "ended by exit() from plugin code (exit status 3) while running the whole study"),
])
def test_a_serve_plugin_that_kills_its_process_is_a_plugin_error(fault, how):
    s = load(SERVE, fault, SMALL_SERVE)
    with pytest.raises(tessera.PluginError) as e:
        s.serve(threads=2)
    text = str(e.value)
    assert text.startswith("a worker process (pid ") and how in text
    assert f"in plugin latency/broken_latency 0.0.1 ({BROKEN}/libtessera_latency_broken_latency.so), " \
           "call time_step, configuration cp=" in text
    assert tessera.Scenario.load(SERVE, set=SMALL_SERVE).serve(threads=1, simulate_top=0).best is not None


def test_isolated_serve_gives_the_in_process_result_requests_included():
    s = load(SERVE, "none", SMALL_SERVE)
    isolated = s.serve(threads=2, requests=True, simulate_top=2)
    here = s.serve(threads=2, requests=True, simulate_top=2, isolate=False)
    assert without_command(isolated) == without_command(here)
    assert len(isolated.simulation.requests) == 200
    with pytest.raises(TypeError, match="isolate"):
        s.serve(isolate=1)


def test_sensitivity_explain_compare_and_a_serve_explore_in_a_worker(small):
    bad, good = load(small, "time_step_segv"), load(small, "none")
    for call in (lambda: bad.sensitivity(threads=2), lambda: bad.explain("tp=2"),
                 lambda: tessera.compare(bad, ["broken_latency", "roofline"], threads=2)):
        with pytest.raises(tessera.PluginError, match="died by signal 11 .* while running the whole study"):
            call()
    assert without_command(good.sensitivity(threads=2)) == without_command(good.sensitivity(threads=2, isolate=False))
    assert without_command(good.explain("tp=2")) == without_command(good.explain("tp=2", isolate=False))
    assert without_command(tessera.compare(good, ["broken_latency", "roofline"])) == \
        without_command(tessera.compare(good, ["broken_latency", "roofline"], isolate=False))
    # The worker's refusal is this call's InputError, said as in one process.
    with pytest.raises(tessera.InputError) as e:
        good.explain("tp=3")
    with pytest.raises(tessera.InputError) as here:
        good.explain("tp=3", isolate=False)
    assert str(e.value).endswith(str(here.value))
    grid = {**SMALL_SERVE, "sweep.hardware": {"machine.pe.hbm.bandwidth": ["2 TB/s", "3.35 TB/s"]}}
    with pytest.raises(tessera.PluginError, match="while running the whole study"):
        load(SERVE, "time_step_abort", grid).explore(threads=2)
    fine = load(SERVE, "none", grid)
    assert without_command(fine.explore(threads=2)) == without_command(fine.explore(threads=2, isolate=False))


def test_ctrl_c_stops_a_serve_worker_stuck_in_a_plugin_call():
    s = load(SERVE, "time_step_hang", SMALL_SERVE)
    assert interrupted_after(lambda: s.serve(threads=2)) < 1.0
    assert workers_left("time_step_hang") == []


def test_validate_data_with_an_added_latency_model_runs_in_a_worker(monkeypatch):
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    csv = ROOT / "data" / "measurements.csv"
    # The fixture's fault when named without parameters (tests/plugins/fixtures/broken_fault.hpp).
    monkeypatch.setenv("TESSERA_BROKEN_FAULT", "time_step_abort")
    with pytest.raises(tessera.PluginError, match="died by signal 6 .* while running the whole study"):
        tessera.validate_data(csv, "broken_latency", plugin_path=[BROKEN])
    monkeypatch.delenv("TESSERA_BROKEN_FAULT")
    isolated = tessera.validate_data(csv, "broken_latency", plugin_path=[BROKEN])
    here = tessera.validate_data(csv, "broken_latency", plugin_path=[BROKEN], isolate=False)
    assert without_command(isolated) == without_command(here)


def test_evaluate_and_configurations_with_an_added_plugin_run_in_a_worker(small):
    import numpy as np
    good = load(small, "none")
    configs = good.configurations()
    assert np.array_equal(configs, good.configurations(isolate=False))
    seen = []
    isolated = good.evaluate(configs, threads=2, progress=lambda done, total, unit: seen.append((done, total, unit)))
    here = good.evaluate(configs, threads=2, isolate=False)
    assert list(isolated) == list(here)
    assert all(np.array_equal(isolated[k], here[k], equal_nan=True) for k in here)
    assert seen and seen[-1] == (len(configs), len(configs), "configurations")
    with pytest.raises(tessera.PluginError, match="died by signal 11 .* call time_step, configuration cp="):
        load(small, "time_step_segv").evaluate({"tp": [1, 2]})
    with pytest.raises(tessera.InputError, match="out of range"):
        good.evaluate({"tp": [0]})  # checked here, before any worker


def test_a_worker_runs_the_scenario_this_interpreter_loaded(tmp_path, monkeypatch):
    """A dict's scenario, a file changed or out of reach after its load, and overrides too large for
    a command line all reach the worker as loaded."""
    import yaml
    tree = yaml.safe_load(SERVE.read_text())
    tree["plugins"] = {"latency": {"name": "broken_latency", "fault": "none"}}
    tree["model"] = str(ROOT / "models" / "llama3.1-70b.yaml")
    tree["machine"] = str(ROOT / "machines" / "dgx-h100.yaml")
    tree.pop("serving")
    tree["serving"] = {"slo": {"ttft": "1 s", "tpot": "50 ms"}, "max_pes": 8}
    tree["sweep"]["serving"] = {"batch": [8, 32], "token_budget": ["2K"]}
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    d = tessera.Scenario.from_dict(tree, base_dir=ROOT, plugin_path=[BROKEN])
    assert without_command(d.serve(threads=2)) == without_command(d.serve(threads=2, isolate=False))
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(tree))
    monkeypatch.chdir(tmp_path)
    s = tessera.Scenario.load("mine.yaml", plugin_path=[BROKEN])
    here = without_command(s.serve(threads=2, isolate=False))
    path.write_text(yaml.safe_dump({**tree, "workload": {"mode": "serve", "input": "8K", "output": "1K"}}))
    assert without_command(s.serve(threads=2)) == here  # the text as loaded, not the file as it is now
    monkeypatch.chdir(ROOT)
    assert without_command(s.serve(threads=2)) == here  # nor another folder's
    big = tessera.Scenario.load(SERVE, {**SMALL_SERVE, "sweep.serving.token_budget": list(range(2048, 32048))},
                                plugin_path=[BROKEN])
    assert big.serve(threads=2, max_pes=1, simulate_top=0).counts is not None


def test_compare_in_this_process_has_a_worker_create_the_models_first(small):
    s = load(small, "create_abort")
    with pytest.raises(tessera.PluginError, match="died by signal 6 .* call create"):
        tessera.compare(s, ["broken_latency", "roofline"], isolate=False)


def test_a_plugins_printf_never_reaches_the_result(capfd):
    """In the worker a plugin's stdout goes to stderr, marked; the document comes apart from it."""
    s = load(SERVE, "time_step_print", SMALL_SERVE)
    printed = s.serve(threads=2, simulate_top=0).raw
    assert "tessera: plugin stdout: hello from a plugin's printf" in capfd.readouterr().err
    plain = load(SERVE, "none", SMALL_SERVE).serve(threads=2, simulate_top=0).raw
    assert printed["best"] == plain["best"] and printed["points"] == plain["points"]


def test_a_worker_resolves_paths_reads_bytes_and_raises_errors_as_this_interpreter(tmp_path, monkeypatch):
    """Relative model and machine paths against the scenario's folder at load, a NUL byte in the
    file, and an input error's locations: the same isolated as in this process."""
    if not (BROKEN / "libtessera_latency_broken_latency.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    import shutil
    sub = tmp_path / "sub"
    sub.mkdir()
    shutil.copy(ROOT / "models" / "llama3.1-8b.yaml", sub / "m.yaml")
    shutil.copy(ROOT / "machines" / "dgx-h100.yaml", sub / "mc.yaml")
    text = ("schema_version: 1\nkind: scenario\nname: rel\n# a comment \0 with a NUL\nmodel: m.yaml\nmachine: mc.yaml\n"
            "workload: {mode: decode, context: 4K, batch: 1}\n"
            "plugins: {latency: {name: broken_latency, fault: none}}\n")
    (sub / "rel.yaml").write_bytes(text.encode())
    monkeypatch.chdir(tmp_path)
    s = tessera.Scenario.load("sub/rel.yaml", plugin_path=[BROKEN])
    monkeypatch.chdir(ROOT)
    assert without_command(s.run(threads=2)) == without_command(s.run(threads=2, isolate=False))
    bad = tmp_path / "bad.csv"
    bad.write_text((ROOT / "data" / "measurements.csv").read_text().splitlines()[0] + "\n1,2,3\n")
    errors = []
    for isolate in (None, False):
        with pytest.raises(tessera.InputError) as e:
            tessera.validate_data(bad, "broken_latency", plugin_path=[BROKEN], isolate=isolate)
        errors.append((str(e.value), e.value.file, e.value.line, e.value.column, len(e.value.diagnostics)))
    assert errors[0] == errors[1] and errors[0][2] == 2
