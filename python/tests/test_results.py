"""Every result is typed and has to_records() / to_pandas(): compare, sensitivity, explore,
serve, validate_data, explain, run, evaluate."""
import json

import pytest

import tessera
from conftest import ROOT, same_document

DATA = ROOT / "data" / "measurements-h200.csv"


def test_compare_typed(small):
    r = tessera.compare(tessera.Scenario.load(small, set={"workload.batch": 8}), ["overlap", "roofline"],
                        threads=2)
    assert isinstance(r, tessera.CompareResult)
    assert r.models == ["overlap", "roofline"] and len(r.optima) == 2
    rows = r.to_records()
    assert [x["latency_model"] for x in rows] == ["overlap", "roofline"]
    assert rows[0]["tp"] == r.optima[0]["config"]["tp"] and rows[0]["rank_under.roofline"] >= 1
    assert r["counts"] == r.counts  # the document's fields, as before
    stages = r.to_records("stages")
    assert stages and {"name", "block", "visible_s.overlap", "visible_s.roofline"} <= set(stages[0])
    with pytest.raises(ValueError, match="tables: optima, kendall"):
        r.to_records("nope")


def test_sensitivity_typed(small):
    r = tessera.Scenario.load(small).sensitivity(threads=2)
    assert isinstance(r, tessera.SensitivityResult) and isinstance(r.best, tessera.Configuration)
    rows = r.to_records("parallelism")
    knobs = {x["knob"] for x in rows}
    assert "tp" in knobs
    tp1 = next(x for x in rows if x["knob"] == "tp" and x["value"] == r.best.config["tp"])
    assert tp1["latency_s"] == r.best.latency_s  # the sweep through the best's own value
    hw = r.to_records("hardware")
    assert hw[0]["rank"] == 1 and "elasticity_fixed" in hw[0]


def test_serve_sensitivity_typed():
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml")
    r = s.sensitivity(threads=2)
    assert r.mode == "serve" and isinstance(r.best, tessera.ServingPoint)
    tp = [x for x in r.to_records("parallelism") if x["knob"] == "tp" and x["value"] == r.best.config["tp"]]
    assert tp[0]["feasible"] and tp[0]["tokens_per_s_per_pe"] == r.raw["best_tokens_per_s_per_pe"]
    hw = {x["knob"]: x for x in r.to_records("hardware")}
    assert hw["serving.slo.tpot"]["elasticity_reoptimised"] >= 0
    assert hw["machine.levels.cluster.latency"]["elasticity_reoptimised"] == 0


def test_serve_explore_ranks_by_every_objective():
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-cost-explore.yaml")
    r = s.explore(threads=2)
    assert [o["name"] for o in r.raw["objectives"]] == ["cost_per_mtok", "tokens_per_s_per_pe"]
    key = r.raw["objectives"][0]["key"]
    costs = [r.points[i]["objectives"][key] for i in r.raw["rankings"]["cost_per_mtok"]]
    assert costs == sorted(costs) and r.ranking == r.raw["rankings"]["cost_per_mtok"]


def test_explore_typed():
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-8b-sram-capacity-explore.yaml")
    r = s.explore(sensitivity=False, threads=2)
    assert isinstance(r, tessera.ExploreResult) and r.mode == "step"
    rows = r.to_records()
    assert len(rows) == len(r.points) == len(r.axes[0]["values"])
    assert {"hardware.machine.plugins.sram_tier.sram_capacity", "best.latency_s", "best.tp", "cost_USD"} <= set(rows[0])
    assert rows[0]["best.latency_s"] == r.points[0]["best"]["latency_s"]


def test_serve_and_explain_records(small):
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml")
    r = s.serve(threads=2)
    rows = r.to_records("frontier")
    assert len(rows) == len(r.frontier) and rows[0]["tpot_s"] == r.frontier[0].tpot_s
    e = tessera.Scenario.load(small).explain("tp=8")
    assert e.to_records()[0]["name"] == e.stages[0]["name"]


def test_validate_data_matches_the_cli(cli, tmp_path):
    out = tmp_path / "v.json"
    proc = cli("validate-data", DATA, "--latency", "roofline,calibrated", "--json", out, "-q")
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(out.read_text())
    r = tessera.validate_data(DATA, latency=["roofline", "calibrated"])
    assert isinstance(r, tessera.ValidationResult)
    assert same_document(r.raw, expected)
    assert [m.latency for m in r.models] == ["roofline", "calibrated"]
    cal = r.model("calibrated")
    assert cal.median_ape == expected["models"][1]["summary"]["overall"]["median_ape"]
    rows = r.to_records()
    assert len(rows) == sum(len(m.rows) for m in r.models)
    assert {"latency", "id", "metric", "measured", "predicted", "ape"} <= set(rows[0])
    summary = r.to_records("summary")
    assert summary[0] == {"latency": "roofline", "source": "overall", "label": "overall",
                          **expected["models"][0]["summary"]["overall"]}
    one = tessera.validate_data(DATA, "calibrated", latency_only=True)
    assert [m.latency for m in one.models] == ["calibrated"]  # a one-model document, typed the same
    latency_metrics = ("ttft", "e2e_latency", "prefill_latency", "tpot", "op_latency:", "kernel_latency")
    assert one.to_records() and all(x["metric"].startswith(latency_metrics) for x in one.to_records())


def test_validate_data_simulate_matches_the_cli(cli, tmp_path):
    # NIM's Llama-3.3-70B FP8 TP2 rows at 1 and 50 clients (TTFT) through the request simulator.
    import csv
    with open(ROOT / "data" / "measurements-serving.csv", newline="") as f:
        reader = csv.DictReader(f)
        picked = [r for r in reader if r["id"] in ("900", "909")]
        fields = reader.fieldnames
    small_csv = tmp_path / "nim.csv"
    with open(small_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(picked)
    out = tmp_path / "s.json"
    proc = cli("validate-data", small_csv, "--latency", "calibrated", "--simulate", "--json", out, "-q")
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(out.read_text())
    r = tessera.validate_data(small_csv, "calibrated", simulate=True)
    assert same_document(r.raw, expected)
    assert r.raw["simulated"]["overall"]["n"] == 2
    assert [x["simulated"]["clients"] for x in r.raw["rows"]] == [1, 50]
    assert "simulated" not in tessera.validate_data(small_csv, "calibrated").raw


def test_validate_data_errors():
    with pytest.raises(tessera.InputError, match="unknown latency plugin 'rooflin'|rooflin"):
        tessera.validate_data(DATA, latency="rooflin")
    with pytest.raises(tessera.InputError):
        tessera.validate_data(ROOT / "no-such.csv", latency="roofline")


def test_frames_need_pandas_only_for_to_pandas(small):
    pd = pytest.importorskip("pandas")
    r = tessera.compare(tessera.Scenario.load(small), ["overlap", "roofline"], threads=2)
    assert isinstance(r.to_pandas(), pd.DataFrame) and len(r.to_pandas()) == 2
    v = tessera.validate_data(DATA, latency="roofline")
    assert len(v.to_pandas("unmapped")) == len(v.models[0].unmapped)


def test_disaggregated_result_typed():
    # The disaggregated pairing is typed like every other result (it was a dict).
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100-disagg.yaml")
    r = s.serve(threads=2)
    d = r.disaggregated
    assert isinstance(d, tessera.DisaggregatedResult)
    raw = r.raw["disaggregated"]
    assert isinstance(d.best, tessera.DisaggPair) and d.best.raw == raw["best"]
    assert isinstance(d.best.prefill, tessera.DisaggPool) and isinstance(d.best.decode, tessera.DisaggPool)
    assert d.best.tokens_per_s_per_pe == raw["best"]["tokens_per_s_per_pe"]
    assert d.best.pes == raw["best"]["pes"]
    assert d.best.pes == (d.best.prefill.instances * d.best.prefill.pes_per_instance
                          + d.best.decode.instances * d.best.decode.pes_per_instance)
    assert d.best.decode.config["tp"] == raw["best"]["decode"]["config"]["tp"]
    assert d.best.decode.tpot_s == raw["best"]["decode"]["tpot_s"]  # the pool's other fields
    assert d.gain == raw["gain"] and d.counts == raw["counts"] and d["gain"] == raw["gain"]
    assert len(d.frontier) == len(raw["frontier"]) and all(isinstance(p, tessera.DisaggPair) for p in d.frontier)
    rows = d.to_records()
    assert len(rows) == len(d.frontier)
    assert rows[0]["tokens_per_s_per_pe"] == d.frontier[0].tokens_per_s_per_pe
    assert rows[0]["prefill.tp"] == d.frontier[0].prefill.config["tp"]
    assert rows[0]["decode.instances"] == d.frontier[0].decode.instances
    assert r.to_records("disaggregated") == rows  # through the serve result too
    assert r.to_records("disaggregated_best") == d.to_records("best")
    with pytest.raises(ValueError, match="unknown table 'pairs'; tables: frontier, best"):
        d.to_records("pairs")


def test_unknown_table_names_the_tables(small):
    # to_records / to_pandas on an unknown table is a ValueError naming the tables,
    # never a bare KeyError.
    r = tessera.Scenario.load(small).run(threads=2)
    with pytest.raises(ValueError, match=r"RunResult.to_records: unknown table 'pareto'; tables: top, frontier, best"):
        r.to_records("pareto")
    with pytest.raises(ValueError, match="tables: top, frontier, best$"):
        r.to_pandas("nope")
    s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml").serve(threads=2)
    assert s.disaggregated is None
    with pytest.raises(ValueError, match="tables: top, frontier, best$"):  # no disaggregated tables here
        s.to_records("disaggregated")
    with pytest.raises(ValueError, match="unknown table 'nope'"):  # before pandas is needed
        s.to_pandas("nope")
