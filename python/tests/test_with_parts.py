"""Scenario.with_model() / with_machine(): a name, a file, a mapping, or (a model) a Hugging Face
config.json path or dict, each read by the framework's loader as `tessera run --model/--machine/--set`
read them: the same document."""
import json

import pytest

import tessera
from conftest import ROOT, same_document

HF = ROOT / "tests" / "fixtures" / "hf" / "llama3.1-70b" / "config.json"
SCENARIO = ROOT / "scenarios" / "llama3.1-70b-decode-128k.yaml"


def _cli_run(cli, tmp_path, *args):
    out = tmp_path / "run.json"
    proc = cli("run", SCENARIO, *args, "--threads", "2", "--json", out, "-q")
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def _same(r, expected):
    assert same_document(r.raw, expected)


def test_with_machine_by_name_and_file(cli, tmp_path):
    s = tessera.Scenario.load(SCENARIO, set={"workload.batch": 4})
    h200 = s.with_machine("dgx-h200")
    assert h200.machine != s.machine and h200.model == s.model
    expected = _cli_run(cli, tmp_path, "--set", "workload.batch=4", "--set", "machine=dgx-h200")
    _same(h200.run(threads=2), expected)
    by_file = s.with_machine(ROOT / "machines" / "dgx-h200.yaml")
    assert by_file.run(threads=2).raw["best"] == expected["best"]
    assert s.run(threads=2).raw["machine"] == s.machine  # s itself is unchanged


def test_with_model_by_name_and_mapping(cli, tmp_path):
    import yaml

    s = tessera.Scenario.load(SCENARIO)
    _same(s.with_model("llama3.1-8b").run(threads=2), _cli_run(cli, tmp_path, "--set", "model=llama3.1-8b"))
    tree = yaml.safe_load((ROOT / "models" / "llama3.1-8b.yaml").read_text())
    assert s.with_model(tree).run(threads=2).raw["best"] == s.with_model("llama3.1-8b").run(threads=2).raw["best"]


def test_with_model_hugging_face_config_path_and_dict(cli, tmp_path):
    s = tessera.Scenario.load(SCENARIO)
    expected = _cli_run(cli, tmp_path, "--model", HF)
    _same(s.with_model(HF).run(threads=2), expected)
    by_dict = s.with_model(json.loads(HF.read_text()))
    r = by_dict.run(threads=2)
    assert r.raw["best"] == expected["best"] and r.raw["counts"] == expected["counts"]
    assert by_dict.model == "hf-model"  # no _name_or_path in the dict: the reader's default name


def test_hugging_face_dict_errors_name_the_missing_dimension():
    s = tessera.Scenario.load(SCENARIO)
    cfg = json.loads(HF.read_text())
    del cfg["num_hidden_layers"]
    with pytest.raises(tessera.InputError, match="lacks num_hidden_layers") as e:
        s.with_model(cfg)
    assert e.value.file == "<dict>"
    cfg = json.loads(HF.read_text())
    cfg["model_type"] = "no_such_family"
    with pytest.raises(tessera.InputError, match="no_such_family") as e:
        s.with_model(cfg)
    assert e.value.file == "<dict>"


def test_with_part_errors():
    s = tessera.Scenario.load(SCENARIO)
    with pytest.raises(tessera.InputError, match="no machine named 'dgx-h300'.*did you mean .*'dgx-h200'"):
        s.with_machine("dgx-h300")
    with pytest.raises(tessera.InputError, match="no such model file"):
        s.with_model(ROOT / "models" / "nope.yaml")
    with pytest.raises(tessera.InputError) as e:
        s.with_model(42)
    assert e.value.key_path == "model"


def test_from_dict_scenario_with_machine():
    import yaml

    tree = yaml.safe_load(SCENARIO.read_text())
    s = tessera.Scenario.from_dict(tree, base_dir=SCENARIO.parent)
    a = s.with_machine("dgx-b200").run(threads=2)
    b = tessera.Scenario.load(SCENARIO).with_machine("dgx-b200").run(threads=2)
    assert a.raw["best"] == b.raw["best"]


def test_load_takes_the_same_forms():
    a = tessera.Scenario.load(SCENARIO, model="llama3.1-8b", machine="dgx-h200")
    b = tessera.Scenario.load(SCENARIO).with_model("llama3.1-8b").with_machine("dgx-h200")
    assert (a.model, a.machine) == (b.model, b.machine) == ("Llama-3.1-8B", "DGX-H200")
    assert a.run(threads=2).raw == b.run(threads=2).raw
    c = tessera.Scenario.load(SCENARIO, model=json.loads(HF.read_text()))
    assert c.model == "hf-model"
