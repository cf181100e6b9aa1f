"""The request simulation typed (docs/python.md): Scenario.serve() on a scenario with
serving.requests gives `.simulation` (percentiles, throughput, goodput, KV, preemptions, time
series), the same numbers as `tessera serve --json`'s `simulation`; `requests=True` keeps every
request (as --requests FILE); to_records / to_pandas of its tables. `.capacity`: the analytical
top K searched by simulation (simulate_top), typed, with its tables."""
from pathlib import Path

import pytest

import tessera

ROOT = Path(__file__).resolve().parents[2]
POISSON = ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100-poisson.yaml"


@pytest.fixture(scope="module")
def served():
    s = tessera.Scenario.load(POISSON, set={"serving.requests.count": 300, "serving.requests.warmup": 30})
    return s.serve(threads=2, requests=True, simulate_top=3)


def test_simulation_is_typed(served):
    sim = served.simulation
    assert isinstance(sim, tessera.Simulation)
    assert sim.requests_sent == 300 and sim.requests_measured == 270 and sim.requests_rejected == 0
    assert isinstance(sim.ttft, tessera.LatencyStats)
    assert sim.ttft.count == 270 and len(sim.ttft.cdf_s) == 99
    assert sim.ttft.cdf_s[98] == sim.ttft.p99_s and sim.ttft.p50_s <= sim.ttft.p90_s <= sim.ttft.p99_s <= sim.ttft.max_s
    assert sim.stream["arrival"] == "poisson" and sim.stream["warmup"] == 30
    assert sim.requests_per_s == pytest.approx(1.0, rel=0.2)
    assert sim.goodput_requests_per_s <= sim.requests_per_s
    assert 0 < sim.kv_occupancy_mean <= sim.kv_occupancy_peak <= 1
    assert sim.preemptions == 0
    assert 0 < len(sim.time_series) <= 512
    assert "requests_timeline" not in served.raw  # the timeline is not part of the --json document
    assert served.raw["simulation"]["ttft"]["p99_s"] == sim.ttft.p99_s


def test_simulation_tables(served):
    sim = served.simulation
    pct = sim.to_records()
    assert [r["metric"] for r in pct] == ["ttft", "tpot", "itl", "e2e", "queueing"]
    assert pct[0]["p90_s"] == sim.ttft.p90_s and pct[0]["count"] == 270 and "cdf_s" not in pct[0]
    reqs = sim.to_records("requests")
    assert len(reqs) == 300 and sum(r["measured"] for r in reqs) == 270
    r0 = min(reqs, key=lambda r: r["id"])
    assert r0["id"] == 0 and r0["measured"] is False and r0["input_tokens"] == 4096
    assert r0["ttft_s"] == pytest.approx(r0["first_token_s"] - r0["arrival_s"])
    assert r0["tpot_s"] == pytest.approx((r0["e2e_s"] - r0["ttft_s"]) / (r0["output_tokens"] - 1))
    assert sim.to_records("time_series")[0]["start_s"] == 0
    # The scenario's SLO {ttft: {p99: 1 s}, tpot: {p90: 50 ms}}: each target on its statistic.
    slo = sim.to_records("slo")
    assert [(c["metric"], c["statistic"], c["limit_s"]) for c in slo] == [("ttft", "p99", 1.0), ("tpot", "p90", 0.05)]
    assert slo[0]["value_s"] == sim.ttft.p99_s and slo[1]["value_s"] == sim.tpot.p90_s
    assert sim.slo_met == all(c["met"] for c in slo)
    with pytest.raises(ValueError, match="unknown table 'nope'"):
        sim.to_records("nope")


def test_simulation_to_pandas(served):
    pd = pytest.importorskip("pandas")
    sim = served.simulation
    df = sim.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df["metric"]) == ["ttft", "tpot", "itl", "e2e", "queueing"]
    assert df.set_index("metric").loc["ttft", "p99_s"] == sim.ttft.p99_s
    assert len(sim.to_pandas("requests")) == 300


def test_requests_are_kept_only_when_asked_and_need_a_stream():
    s = tessera.Scenario.load(POISSON, set={"serving.requests.count": 100, "serving.requests.warmup": 10})
    r = s.serve(threads=2, simulate_top=0)
    assert r.simulation is not None and r.simulation.requests is None
    assert r.capacity is None and "capacity" not in r.raw
    with pytest.raises(ValueError, match="tables: percentiles, slo, time_series$"):
        r.simulation.to_records("requests")
    plain = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml")
    with pytest.raises(tessera.InputError, match="no serving.requests"):
        plain.serve(threads=2, requests=True)


def test_capacity_is_typed(served):
    cap = served.capacity
    assert isinstance(cap, tessera.Capacity)
    assert cap.load == "rate_per_s" and cap.simulate_top == 3 and cap.settings["min_requests"] == 5000
    assert [t["name"] for t in cap.targets] == ["TTFT P99", "TPOT P90"]
    assert [f.simulated_rank for f in cap.finalists] == [1, 2, 3]
    assert sorted(f.analytical_rank for f in cap.finalists) == [1, 2, 3]
    assert cap.best is cap.finalists[0]
    for f in cap.finalists:
        assert isinstance(f, tessera.Finalist)
        assert f.found and f.stop == "converged" and f.load > 0 and f.upper > f.load
        assert f.tokens_per_s_per_pe == pytest.approx(f.output_tokens_per_s / f.pes)
        assert f.difference == pytest.approx(f.tokens_per_s_per_pe / f.analytical_tokens_per_s_per_pe - 1)
        assert f.ttft_p99_s <= 1.0 and f.binding in ("TTFT P99", "TPOT P90")
        assert all(p["met"] == (p["rate_per_s"] <= f.load) for p in f.probes)
    assert cap.finalists[0].tokens_per_s_per_pe >= cap.finalists[-1].tokens_per_s_per_pe
    assert served.raw["capacity"]["finalists"][0]["capacity"]["rate_per_s"] == cap.finalists[0].load
    assert served.raw["command"].endswith("simulate_top=3)")


def test_capacity_tables(served):
    cap = served.capacity
    rows = cap.to_records()
    assert [r["simulated_rank"] for r in rows] == [1, 2, 3]
    assert rows[0]["tp"] == cap.finalists[0].config["tp"] and rows[0]["probes"] == len(cap.finalists[0].probes)
    probes = cap.to_records("probes")
    assert len(probes) == sum(len(f.probes) for f in cap.finalists)
    assert {"simulated_rank", "rate_per_s", "met", "ttft_p99_s", "requests_measured"} <= set(probes[0])
    with pytest.raises(ValueError, match="tables: finalists, probes$"):
        cap.to_records("disaggregated")
    pd = pytest.importorskip("pandas")
    df = cap.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df["simulated_rank"]) == [1, 2, 3]


def test_capacity_without_a_request_stream():
    plain = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml")
    assert plain.serve(threads=2).capacity is None
    cap = plain.serve(threads=2, simulate_top=1).capacity
    assert cap is not None and len(cap.finalists) == 1
    assert cap.stream["arrival"] == "poisson" and cap.finalists[0].found
    with pytest.raises(tessera.InputError, match="simulate_top"):
        plain.serve(threads=2, simulate_top=-1)
