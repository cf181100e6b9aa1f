"""Scenario.evaluate(): columns in, columns out; each row as run() reports it."""
import math

import numpy as np
import pytest

import tessera


def test_the_sweep_through_evaluate_agrees_with_run(small):
    s = tessera.Scenario.load(small)
    r = s.run(threads=1)
    batch = s.configurations()
    assert batch.dtype == tessera.CONFIG_DTYPE and len(batch) == r.counts.valid
    cols = s.evaluate(batch, threads=2)
    assert int(cols["feasible"].sum()) == r.counts.feasible
    key = r.objectives[0]["key"]
    scores = np.where(cols["feasible"], cols[f"objective_{key}"], np.nan)
    i = int(np.nanargmin(scores) if r.objectives[0]["direction"] == "minimize" else np.nanargmax(scores))
    assert cols["latency_s"][i] == r.best.latency_s
    assert cols["used_bytes"][i] == r.best.used_bytes
    assert cols[f"objective_{key}"][i] == r.best.objectives[key]
    assert cols["pes"][i] == r.best.pes
    assert cols["tp"][i] == r.best.config["tp"]


def test_same_numbers_for_any_thread_count(small):
    s = tessera.Scenario.load(small)
    n = 3000
    rng = np.random.default_rng(7)
    batch = {k: rng.choice([1, 2, 4, 8], n) for k in ("tp", "pp", "dp")}
    a = s.evaluate(batch, threads=1)
    b = s.evaluate(batch, threads=3)
    np.testing.assert_array_equal(a["latency_s"], b["latency_s"])
    np.testing.assert_array_equal(a["feasible"], b["feasible"])


def test_invalid_rows_are_nan_and_bad_columns_refused(small):
    s = tessera.Scenario.load(small)
    cols = s.evaluate({"tp": np.array([1, 1 << 20]), "pp": np.array([1, 1])})
    assert cols["valid"].tolist() == [True, False]
    assert not math.isnan(cols["latency_s"][0]) and math.isnan(cols["latency_s"][1])
    with pytest.raises(tessera.InputError, match="unknown column 'tpp'"):
        s.evaluate({"tpp": [1]})
    with pytest.raises(tessera.InputError, match="tp = 0 is out of range"):
        s.evaluate({"tp": [0]})
    assert s.evaluate({"tp": np.array([], dtype=np.int32)})["latency_s"].shape == (0,)
