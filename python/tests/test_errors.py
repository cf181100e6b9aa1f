"""Bad input raises tessera.InputError (located, every problem listed); a failing plugin
raises tessera.PluginError naming it; nothing crashes the interpreter."""
import pytest

import tessera
from conftest import BUILD, ROOT


def test_bad_yaml_is_located_as_the_cli_says(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nkind: scenario\nmodel: [unclosed\n")
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.load(bad)
    assert (e.value.file, e.value.line, e.value.column) == (str(bad), 4, 1)  # where yaml-cpp stops
    proc = cli("run", bad, "-q")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == e.value.diagnostics[0].text == str(e.value)


def test_unknown_key_names_the_key_path(small):
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.load(small, set={"workload.bacth": 8})
    assert "did you mean" in str(e.value) and "workload.batch" in str(e.value)
    assert e.value.file == "<command line>"


def test_from_dict_errors_name_dict(small):
    import yaml

    tree = yaml.safe_load(small.read_text())
    tree["workload"]["batch"] = "many"
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.from_dict(tree, base_dir=small.parent)
    assert e.value.file == "<dict>"
    assert e.value.key_path == "workload.batch"
    assert all(d.file == "<dict>" for d in e.value.diagnostics)


def test_bad_plugin_parameter(small):
    with pytest.raises(tessera.InputError) as e:
        tessera.Scenario.load(small, set={"plugins.search": {"name": "random", "samples": -5}})
    assert "samples" in str(e.value)


def test_unknown_plugin_lists_the_nearest(small):
    with pytest.raises(tessera.InputError, match="did you mean 'roofline'"):
        tessera.Scenario.load(small, set={"plugins.latency": "roofline2"})


def test_broken_plugin_fixture_raises_plugin_error(small):
    throws = BUILD / "test-plugins" / "throws"
    if not (throws / "libtessera_latency_throws.so").exists():
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    # An added plugin is created where a study runs: its worker (isolated), or this process.
    thrower = tessera.Scenario.load(small, set={"plugins.latency": {"name": "throws", "throw": "std"}},
                                    plugin_path=[throws])
    for call in (lambda: thrower.run(threads=1), lambda: thrower.run(isolate=False), lambda: thrower.evaluate({"tp": [1]})):
        with pytest.raises(tessera.PluginError) as e:
            call()
        assert "latency/throws" in str(e.value)
    s = tessera.Scenario.load(small, set={"plugins.latency": {"name": "throws", "throw": "none"}},
                              plugin_path=[throws])
    with pytest.raises(tessera.PluginError, match="time_step exploded"):
        s.run(threads=2)
    with pytest.raises(tessera.PluginError, match="time_step exploded"):
        s.evaluate({"tp": [1, 2, 4]}, threads=1)
    assert tessera.Scenario.load(small).run(threads=1).best is not None  # the interpreter carries on


def test_plugins_lists_the_shipped_ones():
    listed = tessera.plugins()
    ids = {p["id"] for p in listed}
    assert {"latency/roofline", "latency/overlap", "search/exhaustive", "memory/standard"} <= ids
    random = next(p for p in listed if p["id"] == "search/random")
    assert any(q["name"] == "samples" for q in random["params"])
    assert str(BUILD / "lib" / "tessera" / "plugins") in tessera.plugin_search_path()


def test_static_initialiser_that_throws_is_a_plugin_error(small):
    """The fixture's static initialiser throws while dlopen runs it: uncatchable in-process (the
    CLI exits 1); the module opens each library in a child process first (host/load_probe.hpp)."""
    d = BUILD / "test-plugins" / "static_throw"
    if not any(d.glob("*.so")):
        pytest.skip("the plugin fixtures are not built (tests/plugins)")
    with pytest.raises(tessera.PluginError, match="static initialiser of the library threw "
                                                  "'fixture: static initialiser failed'"):
        tessera.plugins(plugin_path=[d])
    with pytest.raises(tessera.PluginError, match="latency_static_throw.*static initialiser"):
        tessera.Scenario.load(small, set={"plugins.latency": "static_throw"}, plugin_path=[d])
    assert tessera.Scenario.load(small, plugin_path=[d]).run(threads=1).best is not None  # still here


@pytest.mark.parametrize("call, key", [
    (lambda s, p: tessera.Scenario.load(p, set={"workload.batch": object()}), "workload.batch"),
    (lambda s, p: tessera.Scenario.load(p, set={"sweep.parallelism.tp": [1, {2}]}), "sweep.parallelism.tp[1]"),
    (lambda s, p: tessera.Scenario.from_dict({"workload": {"batch": 1j}}), "workload.batch"),
    (lambda s, p: s.run(threads=-1), "threads"),
    (lambda s, p: s.run(threads="4"), "threads"),
    (lambda s, p: s.run(top=2.5), "top"),
    (lambda s, p: s.serve(max_pes=-3), "max_pes"),
    (lambda s, p: s.evaluate([1, 2]), "evaluate"),
    (lambda s, p: s.explain(3), "config"),
    (lambda s, p: tessera.Scenario.load(3.5), "path"),
    (lambda s, p: tessera.Scenario.load(p, set=[("workload.batch", 2)]), "set"),
], ids=["set-object", "set-list-item", "dict-complex", "threads-negative", "threads-str", "top-float",
        "max-pes-negative", "evaluate-list", "explain-int", "path-float", "set-not-dict"])
def test_bad_arguments_raise_input_error(small, call, key):
    s = tessera.Scenario.load(small)
    with pytest.raises(tessera.InputError) as e:
        call(s, small)
    assert e.value.key_path == key or str(e.value).startswith(key + ":")


def test_numpy_values_in_set(small):
    import numpy as np

    a = tessera.Scenario.load(small, set={"workload.batch": np.int64(8), "sweep.parallelism.tp": np.array([2, 4])})
    b = tessera.Scenario.load(small, set={"workload.batch": 8, "sweep.parallelism.tp": [2, 4]})
    assert a.run(threads=1).raw == b.run(threads=1).raw


@pytest.mark.parametrize("latency", [5, 3.5, object()])
def test_plugin_names_of_a_wrong_type_raise_input_error(latency):
    with pytest.raises(tessera.InputError, match="latency: expected plugin names"):
        tessera.validate_data(ROOT / "data" / "measurements.csv", latency=latency)
