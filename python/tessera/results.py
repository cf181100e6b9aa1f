"""Typed results: each configuration a small object with its knobs (`.config`) and its numbers
in SI units; every result converts to records (a list of flat dicts) and to a pandas DataFrame."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

KNOBS = ("cp", "tp", "pp", "dp", "ep", "kv_shard_mode", "ffn_shard_scope", "tp_placement", "cp_placement",
         "cp_ring_variant")


def _nan(v: Optional[float]) -> float:
    return float("nan") if v is None else float(v)


@dataclass(frozen=True)
class Configuration:
    """One evaluated configuration, as `tessera run --json` reports it (SI units)."""

    config: Dict[str, Any]  # the knobs: cp, tp, pp, dp, ep, kv_shard_mode, ffn_shard_scope, ...
    objectives: Dict[str, float]  # by objective key ("latency_s", ...)
    latency_s: float
    throughput_tok_s: float
    pipeline_throughput_tok_s: float
    efficiency: float
    compute_util: float
    bw_util: float
    pes: int
    units_used: Dict[str, int]
    fits_memory: bool
    placement_valid: bool
    feasible: bool
    reason: str
    weights_bytes: float
    kv_bytes: float
    transient_bytes: float
    used_bytes: float
    budget_bytes: float
    hbm_utilization: float
    raw: Dict[str, Any] = field(repr=False, compare=False)  # the JSON record itself

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Configuration":
        return cls(config={k: j[k] for k in KNOBS if k in j}, objectives={k: _nan(v) for k, v in j["objectives"].items()},
                   latency_s=_nan(j["latency_s"]), throughput_tok_s=_nan(j["throughput_tok_s"]),
                   pipeline_throughput_tok_s=_nan(j["pipeline_throughput_tok_s"]),
                   efficiency=_nan(j["efficiency"]), compute_util=_nan(j["compute_util"]),
                   bw_util=_nan(j["bw_util"]), pes=int(j["pes"]), units_used=dict(j["units_used"]),
                   fits_memory=bool(j["fits_memory"]), placement_valid=bool(j["placement_valid"]),
                   feasible=bool(j["feasible"]), reason=j["reason"], weights_bytes=_nan(j["weights_bytes"]),
                   kv_bytes=_nan(j["kv_bytes"]), transient_bytes=_nan(j["transient_bytes"]),
                   used_bytes=_nan(j["used_bytes"]), budget_bytes=_nan(j["budget_bytes"]),
                   hbm_utilization=_nan(j["hbm_utilization"]), raw=j)

    @property
    def config_text(self) -> str:
        """The spelling explain() and `tessera explain --config` read."""
        return ",".join(f"{k}={v}" for k, v in self.config.items())

    def to_record(self) -> Dict[str, Any]:
        """One flat dict: the knobs, objective_<key>, the numbers, units_used_<level>."""
        r: Dict[str, Any] = dict(self.config)
        r.update({f"objective_{k}": v for k, v in self.objectives.items()})
        for name in ("latency_s", "throughput_tok_s", "pipeline_throughput_tok_s", "efficiency", "compute_util",
                     "bw_util", "pes", "fits_memory", "placement_valid", "feasible", "reason", "weights_bytes",
                     "kv_bytes", "transient_bytes", "used_bytes", "budget_bytes", "hbm_utilization"):
            r[name] = getattr(self, name)
        r.update({f"units_used_{k}": v for k, v in self.units_used.items()})
        return r


@dataclass(frozen=True)
class Counts:
    enumerated: int  # grid points
    valid: int  # canonical and valid
    feasible: int  # of the evaluated, valid and fitting memory
    evaluated: int  # scored by the search
    non_finite: int = 0  # of the evaluated, valid but infeasible for a non-finite quantity


def _table(owner: Any, which: str, tables: Dict[str, Any]) -> Any:
    """tables[which], or a ValueError naming the tables that exist (never a bare KeyError)."""
    if which not in tables:
        raise ValueError(f"{type(owner).__name__}.to_records: unknown table {which!r}; tables: "
                         + ", ".join(tables))
    return tables[which]


def _frame(records: List[Dict[str, Any]]):
    try:
        import pandas
    except ImportError as e:  # pandas is optional (Debian: python3-pandas)
        raise ImportError("to_pandas() needs pandas (Debian: apt-get install python3-pandas)") from e
    return pandas.DataFrame.from_records(records)


@dataclass(frozen=True)
class RunResult:
    """What Scenario.run() found: `tessera run --json`'s document, typed."""

    scenario: str
    model: str
    machine: str
    latency_model: str
    search: str
    counts: Counts
    objectives: List[Dict[str, str]]  # name, direction, unit, key
    best: Optional[Configuration]  # by the first objective; None when nothing is feasible
    frontier: List[Configuration]  # the Pareto frontier over all objectives
    top: List[Configuration]  # the top N, best first
    raw: Dict[str, Any] = field(repr=False, compare=False)  # the JSON document itself

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "RunResult":
        return cls(scenario=j["scenario"], model=j["model"], machine=j["machine"], latency_model=j["latency_model"],
                   search=j["search"], counts=Counts(**j["counts"]), objectives=list(j["objectives"]),
                   best=Configuration.from_json(j["best"]) if j["best"] is not None else None,
                   frontier=[Configuration.from_json(r) for r in j["pareto"]],
                   top=[Configuration.from_json(r) for r in j["top"]], raw=j)

    def to_records(self, which: str = "top") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "top", "frontier" or "best" (another name: ValueError naming them)."""
        rows = _table(self, which, {"top": self.top, "frontier": self.frontier,
                                    "best": [self.best] if self.best else []})
        return [c.to_record() for c in rows]

    def to_pandas(self, which: str = "top"):
        """A DataFrame of to_records(which) (needs pandas)."""
        return _frame(self.to_records(which))


@dataclass(frozen=True)
class Explanation:
    """Scenario.explain(): `tessera explain --json`'s document; `stages` as records."""

    config: Dict[str, Any]
    stages: List[Dict[str, Any]]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    def to_records(self) -> List[Dict[str, Any]]:
        return [dict(s) for s in self.stages]

    def to_pandas(self):
        return _frame(self.to_records())


class Columns(dict):
    """Scenario.evaluate(): NumPy columns by name (the knobs given, then the results in SI)."""

    def to_records(self) -> List[Dict[str, Any]]:
        names = list(self.keys())
        n = len(self[names[0]]) if names else 0
        cols = [self[k].tolist() for k in names]
        return [dict(zip(names, row)) for row in zip(*cols)] if n else []

    def to_pandas(self):
        try:
            import pandas
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (Debian: apt-get install python3-pandas)") from e
        return pandas.DataFrame(dict(self))


@dataclass(frozen=True)
class ServingPoint:
    """One configuration x serving point of the serving study (`tessera serve --json`), SI units."""

    config: Dict[str, Any]  # the knobs
    batch: int
    replicas: int
    pes: int
    ttft_s: float
    tpot_s: float
    tokens_per_s: float
    tokens_per_s_per_user: float
    feasible: bool
    verdict: str
    reason: str
    raw: Dict[str, Any] = field(repr=False, compare=False)  # every field of the JSON record

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "ServingPoint":
        return cls(config={k: j[k] for k in KNOBS if k in j}, batch=int(j["batch"]), replicas=int(j["replicas"]),
                   pes=int(j["pes"]), ttft_s=_nan(j["ttft_s"]), tpot_s=_nan(j["tpot_s"]),
                   tokens_per_s=_nan(j["tokens_per_s"]), tokens_per_s_per_user=_nan(j["tokens_per_s_per_user"]),
                   feasible=bool(j["feasible"]), verdict=j["verdict"], reason=j["reason"], raw=j)

    def __getattr__(self, name: str) -> Any:  # the other fields of the record (e2e_s, kv_bytes, ...)
        raw = self.__dict__.get("raw", {})
        if name in raw:
            return raw[name]
        raise AttributeError(name)

    def to_record(self) -> Dict[str, Any]:
        r = {k: v for k, v in self.raw.items() if k != "objectives"}
        r.update({f"objective_{k}": v for k, v in (self.raw.get("objectives") or {}).items()})
        return r


@dataclass(frozen=True)
class DisaggPool:
    """One side of a disaggregated pair (its `prefill` or `decode`): `instances` copies of one
    configuration at one batch, SI units."""

    config: Dict[str, Any]  # the knobs
    batch: int
    instances: int
    pes_per_instance: int
    requests_per_s_per_instance: float
    raw: Dict[str, Any] = field(repr=False, compare=False)  # every field (prefill_s, tpot_s, machine, ...)

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "DisaggPool":
        return cls(config=dict(j["config"]), batch=int(j["batch"]), instances=int(j["instances"]),
                   pes_per_instance=int(j["pes_per_instance"]),
                   requests_per_s_per_instance=_nan(j.get("requests_per_s_per_instance")), raw=j)

    def __getattr__(self, name: str) -> Any:  # the other fields (prefill_s, tpot_s, machine, ...)
        raw = self.__dict__.get("raw", {})
        if name in raw:
            return raw[name]
        raise AttributeError(name)


@dataclass(frozen=True)
class DisaggPair:
    """A rate-matched prefill pool and decode pool (`tessera serve --json`'s disaggregated
    frontier and best), SI units."""

    id: str
    prefill: DisaggPool
    decode: DisaggPool
    pes: int  # both pools
    tokens_per_s_per_pe: float
    tokens_per_s_per_user: float
    ttft_s: float
    tpot_s: float
    e2e_s: float
    bound: str  # the pool that limits the pair's rate: "prefill" or "decode"
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "DisaggPair":
        return cls(id=str(j.get("id", "")), prefill=DisaggPool.from_json(j["prefill"]),
                   decode=DisaggPool.from_json(j["decode"]), pes=int(j["pes"]),
                   tokens_per_s_per_pe=_nan(j["tokens_per_s_per_pe"]),
                   tokens_per_s_per_user=_nan(j["tokens_per_s_per_user"]), ttft_s=_nan(j["ttft_s"]),
                   tpot_s=_nan(j["tpot_s"]), e2e_s=_nan(j.get("e2e_s")), bound=str(j.get("bound", "")), raw=j)

    def __getattr__(self, name: str) -> Any:  # the other fields (link, kv_bytes_per_request, ...)
        raw = self.__dict__.get("raw", {})
        if name in raw:
            return raw[name]
        raise AttributeError(name)

    def to_record(self) -> Dict[str, Any]:
        """One flat dict: the pair's numbers, then prefill.<field> and decode.<field> (knobs as
        prefill.tp, decode.tp, ...)."""
        r = {k: v for k, v in self.raw.items() if k not in ("prefill", "decode") and not isinstance(v, dict)}
        for side in ("prefill", "decode"):
            pool = self.raw[side]
            r.update({f"{side}.{k}": v for k, v in pool.items() if k != "config" and not isinstance(v, dict)})
            r.update({f"{side}.{k}": v for k, v in pool["config"].items()})
        return r


@dataclass(frozen=True)
class DisaggregatedResult:
    """ServeResult.disaggregated: the disaggregated pairing of `tessera serve --json` (its
    `disaggregated` block), typed. `frontier` and `best` are DisaggPair; `gain` is the best's
    tokens/s/PE over the aggregated best's."""

    best: Optional[DisaggPair]  # None when no pair meets the SLO
    frontier: List[DisaggPair]
    gain: float
    aggregated_best_tokens_per_s_per_pe: float
    counts: Dict[str, int]
    max_replicas: int
    prefill_batch: List[int]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    TABLES = ("frontier", "best")

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "DisaggregatedResult":
        return cls(best=DisaggPair.from_json(j["best"]) if j.get("best") else None,
                   frontier=[DisaggPair.from_json(r) for r in j.get("frontier", [])], gain=_nan(j.get("gain")),
                   aggregated_best_tokens_per_s_per_pe=_nan(j.get("aggregated_best_tokens_per_s_per_pe")),
                   counts=dict(j.get("counts", {})), max_replicas=int(j.get("max_replicas", 0)),
                   prefill_batch=list(j.get("prefill_batch", [])), raw=j)

    def __getitem__(self, key: str) -> Any:  # the block's fields, as the dict it was
        return self.raw[key]

    def __contains__(self, key: str) -> bool:
        return key in self.raw

    def to_records(self, which: str = "frontier") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "frontier" or "best" (another name: ValueError naming them)."""
        rows = _table(self, which, {"frontier": self.frontier, "best": [self.best] if self.best else []})
        return [p.to_record() for p in rows]

    def to_pandas(self, which: str = "frontier"):
        return _frame(self.to_records(which))


_LATENCY_METRICS = ("ttft", "tpot", "itl", "e2e", "queueing")


@dataclass(frozen=True)
class LatencyStats:
    """One latency metric of a request simulation (seconds): the mean and P50/P90/P99 with the
    half-widths of their 95 % intervals (NaN where undefined), the max and `cdf_s` (P1..P99)."""

    count: int
    mean_s: float
    mean_half_width_s: float
    p50_s: float
    p50_half_width_s: float
    p90_s: float
    p90_half_width_s: float
    p99_s: float
    p99_half_width_s: float
    max_s: float
    cdf_s: List[float]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "LatencyStats":
        return cls(count=int(j["count"]), mean_s=_nan(j["mean_s"]), mean_half_width_s=_nan(j["mean_half_width_s"]),
                   p50_s=_nan(j["p50_s"]), p50_half_width_s=_nan(j["p50_half_width_s"]), p90_s=_nan(j["p90_s"]),
                   p90_half_width_s=_nan(j["p90_half_width_s"]), p99_s=_nan(j["p99_s"]),
                   p99_half_width_s=_nan(j["p99_half_width_s"]), max_s=_nan(j["max_s"]),
                   cdf_s=[_nan(v) for v in j.get("cdf_s", [])])


@dataclass(frozen=True)
class Simulation:
    """The best serving point simulated request by request (serving.requests; `tessera serve
    --json`'s `simulation`, docs/report.md "Request simulation"), SI units. Tables:
    "percentiles" (one row per metric, as serve --csv's FILE.simulation.csv), "time_series" (KV
    occupancy and queue depth over time), "requests" (serve(requests=True): every request, as
    --requests FILE)."""

    config: Dict[str, Any]
    batch: int
    token_budget: int
    stream: Dict[str, Any]
    requests_sent: int
    requests_measured: int
    requests_rejected: int
    ttft: LatencyStats
    tpot: LatencyStats
    itl: LatencyStats
    e2e: LatencyStats
    queueing: LatencyStats
    output_tokens_per_s: float
    requests_per_s: float
    goodput_requests_per_s: float
    kv_occupancy_mean: float
    kv_occupancy_peak: float
    queue_depth_mean: float
    preemptions: int
    slo: List[Dict[str, Any]]  # each serving.slo target: metric, statistic, limit_s, value_s, half_width_s, met
    slo_met: bool
    time_series: List[Dict[str, Any]]
    requests: Optional[List[Dict[str, Any]]]  # serve(requests=True) only
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, j: Dict[str, Any], requests: Optional[List[Dict[str, Any]]] = None) -> "Simulation":
        m = {k: LatencyStats.from_json(j[k]) for k in _LATENCY_METRICS}
        return cls(config=dict(j["config"]), batch=int(j["batch"]), token_budget=int(j["token_budget"]),
                   stream=dict(j["stream"]), requests_sent=int(j["requests_sent"]),
                   requests_measured=int(j["requests_measured"]), requests_rejected=int(j["requests_rejected"]),
                   output_tokens_per_s=_nan(j["output_tokens_per_s"]), requests_per_s=_nan(j["requests_per_s"]),
                   goodput_requests_per_s=_nan(j["goodput_requests_per_s"]),
                   kv_occupancy_mean=_nan(j["kv_occupancy_mean"]), kv_occupancy_peak=_nan(j["kv_occupancy_peak"]),
                   queue_depth_mean=_nan(j["queue_depth_mean"]), preemptions=int(j["preemptions"]),
                   slo=[{k: (_nan(v) if k in ("value_s", "half_width_s") else v) for k, v in c.items()}
                        for c in j.get("slo", [])],
                   slo_met=bool(j.get("slo_met", True)), time_series=[dict(t) for t in j.get("time_series", [])], requests=requests, raw=j, **m)

    def to_records(self, which: str = "percentiles") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "percentiles", "slo", "time_series", or "requests" (serve(requests=True))."""
        tables: Dict[str, Any] = {
            "percentiles": [{"metric": k, **{f: v for f, v in vars(getattr(self, k)).items() if f != "cdf_s"}}
                            for k in _LATENCY_METRICS],
            "slo": self.slo, "time_series": self.time_series}
        if self.requests is not None:
            tables["requests"] = self.requests
        return [dict(r) for r in _table(self, which, tables)]

    def to_pandas(self, which: str = "percentiles"):
        return _frame(self.to_records(which))


_CAPACITY_FIGURES = ("requests_per_s", "output_tokens_per_s", "goodput_requests_per_s", "ttft_p99_s", "tpot_p99_s",
                     "e2e_p99_s")


@dataclass(frozen=True)
class Finalist:
    """One of the analytical top K whose capacity was searched by simulation (`tessera serve
    --json`'s capacity.finalists, docs/report.md "Capacity"), SI units. `load` is the largest
    offered rate (requests/s) or clients within every SLO target (NaN: none met); the figures are
    those simulated at it. `probes`: every simulation of the search, in the order run."""

    config: Dict[str, Any]
    batch: int
    token_budget: int
    pes: int
    study_rank: int  # in the serve study's ranking (its first objective)
    analytical_rank: int  # by analytical tokens/s/PE among the finalists: what simulated_rank is compared with
    simulated_rank: int
    moved: bool  # the rank moved by more than settings["rank_shift_flag"] places
    analytical_tokens_per_s_per_pe: float
    tokens_per_s_per_pe: float  # simulated, output tokens at the capacity
    difference: float  # tokens_per_s_per_pe / analytical_tokens_per_s_per_pe - 1
    found: bool
    stop: str  # converged, probe_limit, ceiling, none_met
    load: float
    upper: float  # the smallest load that missed (NaN: none did)
    requests_per_s: float
    output_tokens_per_s: float
    goodput_requests_per_s: float
    ttft_p99_s: float
    tpot_p99_s: float
    e2e_p99_s: float
    binding: Optional[str]  # the target that stops a higher load ("TTFT P99")
    probes: List[Dict[str, Any]]

    @classmethod
    def from_json(cls, j: Dict[str, Any], load: str) -> "Finalist":
        c = j["capacity"]
        return cls(config=dict(j["config"]), batch=int(j["batch"]), token_budget=int(j["token_budget"]),
                   pes=int(j["pes"]), study_rank=int(j["study_rank"]), analytical_rank=int(j["analytical_rank"]),
                   simulated_rank=int(j["simulated_rank"]), moved=bool(j["moved"]),
                   analytical_tokens_per_s_per_pe=_nan(j["analytical"]["tokens_per_s_per_pe"]),
                   tokens_per_s_per_pe=_nan(j["tokens_per_s_per_pe"]), difference=_nan(j["difference"]),
                   found=bool(c["found"]), stop=str(c["stop"]), load=_nan(c[load]), upper=_nan(c["upper"]),
                   binding=c.get("binding"), probes=[dict(p) for p in c.get("probes", [])],
                   **{k: _nan(c[k]) for k in _CAPACITY_FIGURES})

    def to_record(self) -> Dict[str, Any]:
        r = {k: v for k, v in vars(self).items() if k not in ("config", "probes")}
        return {**self.config, **r, "probes": len(self.probes)}


@dataclass(frozen=True)
class Capacity:
    """The analytical top K confirmed by simulation (`tessera serve --simulate-top K`, or
    serving.requests: `--json`'s `capacity`, docs/report.md "Capacity"): each finalist's capacity
    under the percentile SLOs, re-ranked by simulated tokens/s/PE. Tables: "finalists" (one row
    per finalist), "probes" (every simulation of every search, with the
    finalist's ranks), "disaggregated" (the best pair's search, when serving.disaggregated). The
    "finalists" rows hold the figures of FILE.capacity.csv's `aggregated` rows under the
    Finalist's names (`load`, `upper` for the CSV's rate_per_s or clients columns), and the
    configuration's knobs."""

    load: str  # "rate_per_s" (open loop) or "clients" (closed loop)
    simulate_top: int
    moved: int
    settings: Dict[str, Any]  # min_requests, max_requests, precision, tolerance, max_probes, ...
    targets: List[Dict[str, Any]]  # the SLO targets every probe checks
    stream: Dict[str, Any]
    finalists: List[Finalist]  # by simulated rank
    disaggregated: Optional[Dict[str, Any]]  # the best pair: pair, analytical, capacity (with probes)
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Capacity":
        load = str(j["load"])
        return cls(load=load, simulate_top=int(j["simulate_top"]), moved=int(j["moved"]),
                   settings=dict(j["settings"]), targets=[dict(t) for t in j.get("targets", [])],
                   stream=dict(j["stream"]), finalists=[Finalist.from_json(f, load) for f in j["finalists"]],
                   disaggregated=j.get("disaggregated"), raw=j)

    @property
    def best(self) -> Optional[Finalist]:
        """The finalist with the most simulated tokens/s/PE at its capacity (None: no finalist)."""
        return self.finalists[0] if self.finalists else None

    def to_records(self, which: str = "finalists") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "finalists", "probes" or "disaggregated" (its probes)."""
        tables: Dict[str, Any] = {
            "finalists": [f.to_record() for f in self.finalists],
            "probes": [{"simulated_rank": f.simulated_rank, "analytical_rank": f.analytical_rank, **p}
                       for f in self.finalists for p in f.probes]}
        if self.disaggregated is not None:
            tables["disaggregated"] = [dict(p) for p in self.disaggregated["capacity"].get("probes", [])]
        return [dict(r) for r in _table(self, which, tables)]

    def to_pandas(self, which: str = "finalists"):
        return _frame(self.to_records(which))


@dataclass(frozen=True)
class ServeResult:
    """What Scenario.serve() found: `tessera serve --json`'s document, typed."""

    scenario: str
    counts: Dict[str, int]
    best: Optional[ServingPoint]  # within the SLO, by the first objective; None when none is
    closest_miss: Optional[ServingPoint]
    frontier: List[ServingPoint]
    top: List[ServingPoint]
    disaggregated: Optional["DisaggregatedResult"]  # serving.disaggregated on: the pairing, typed
    raw: Dict[str, Any] = field(repr=False, compare=False)
    simulation: Optional[Simulation] = None  # serving.requests given: the best point simulated
    capacity: Optional[Capacity] = None  # serve(simulate_top=K), or serving.requests: the top K simulated

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "ServeResult":
        point = lambda r: ServingPoint.from_json(r) if r else None  # noqa: E731
        d = j.get("disaggregated")
        timeline = j.pop("requests_timeline", None)  # serve(requests=True): not in the --json document
        sim = Simulation.from_json(j["simulation"], timeline) if "simulation" in j else None
        return cls(scenario=j["scenario"], counts=dict(j["counts"]), best=point(j.get("best")),
                   closest_miss=point(j.get("closest_miss")),
                   frontier=[ServingPoint.from_json(r) for r in j.get("frontier", [])],
                   top=[ServingPoint.from_json(r) for r in j.get("top", [])],
                   disaggregated=DisaggregatedResult.from_json(d) if d is not None else None, raw=j,
                   simulation=sim, capacity=Capacity.from_json(j["capacity"]) if "capacity" in j else None)

    def to_records(self, which: str = "top") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "top", "frontier", "best", or the disaggregated pairing's
        "disaggregated" (its frontier) and "disaggregated_best" when serving.disaggregated is on
        (another name: ValueError naming the tables this result has)."""
        tables: Dict[str, Any] = {"top": self.top, "frontier": self.frontier,
                                  "best": [self.best] if self.best else []}
        if self.disaggregated is not None:
            tables["disaggregated"] = self.disaggregated.frontier
            tables["disaggregated_best"] = [self.disaggregated.best] if self.disaggregated.best else []
        return [p.to_record() for p in _table(self, which, tables)]

    def to_pandas(self, which: str = "top"):
        return _frame(self.to_records(which))


def _flatten(d: Dict[str, Any], prefix: str = "") -> Dict[str, Any]:
    """One flat record of a JSON object: a top-level `config` gives its knobs as columns,
    `objectives` give objective_<key>, any other nested object parent.child columns; lists stay."""
    out: Dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            if k == "config" and not prefix:
                out.update(_flatten(v))
            elif k == "objectives":
                out.update({f"{prefix}objective_{kk}": vv for kk, vv in v.items()})
            else:
                out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


class _Document:
    """A result that is one of the CLI's --json documents (`.raw`), with its tables as records.
    Subclasses name their tables (`TABLES`, the first the default) and set typed attributes."""

    TABLES: tuple = ()

    def __init__(self, raw: Dict[str, Any]):
        self.raw = raw

    def __getitem__(self, key: str) -> Any:  # the document's fields, as the dict it was
        return self.raw[key]

    def _rows(self, which: str) -> List[Dict[str, Any]]:
        raise NotImplementedError

    def to_records(self, which: Optional[str] = None) -> List[Dict[str, Any]]:
        """Flat dicts of the table `which` (None: the first of TABLES)."""
        which = which or self.TABLES[0]
        _table(self, which, dict.fromkeys(self.TABLES))
        return self._rows(which)

    def to_pandas(self, which: Optional[str] = None):
        """A DataFrame of to_records(which) (needs pandas)."""
        return _frame(self.to_records(which))

    def __repr__(self) -> str:
        return f"<tessera.{type(self).__name__} {self.raw.get('scenario', '')!r}: tables {', '.join(self.TABLES)}>"


class CompareResult(_Document):
    """tessera.compare(): `tessera compare --json`'s document. `optima`: each model's optimum
    (config, latency_s, score, rank_under every model); `kendall`: the rank agreement of each pair;
    `winner_changes`; `stages`: the optima's stages under every model."""

    TABLES = ("optima", "kendall", "winner_changes", "stages")

    def __init__(self, raw: Dict[str, Any]):
        super().__init__(raw)
        self.scenario: str = raw["scenario"]
        self.objective: str = raw["objective"]
        self.models: List[str] = list(raw["models"])
        self.counts: Dict[str, int] = dict(raw["counts"])
        self.optima: List[Dict[str, Any]] = list(raw["optima"])
        self.kendall: List[Dict[str, Any]] = list(raw["kendall"])
        self.winner_changes: List[Dict[str, Any]] = list(raw["winner_changes"])

    def _rows(self, which: str) -> List[Dict[str, Any]]:
        if which == "stages":  # one row per optimum x stage
            rows = []
            for st in self.raw.get("stages", []):
                head = {k: v for k, v in _flatten(st).items() if k != "stages" and k != "optimum_of"}
                head["optimum_of"] = ",".join(st.get("optimum_of", []))
                for stage in st.get("stages", []):
                    rows.append({**head, **{f"stage.{k}" if k in head else k: v for k, v in _flatten(stage).items()}})
            return rows
        return [_flatten(r) for r in self.raw[which]]


class SensitivityResult(_Document):
    """Scenario.sensitivity(): `tessera sensitivity --json`'s document. `best` the baseline's
    optimum; `parallelism`: each knob's sweep (rows: knob, value, latency_s, ...); `hardware`:
    each hardware parameter's elasticities. On a serve scenario (`mode` "serve") `best` is the
    serving study's best point within the SLO (a ServingPoint), the sweeps' rows hold the best
    tokens_per_s_per_pe within the SLO per value, and the elasticities are of it."""

    TABLES = ("parallelism", "hardware")

    def __init__(self, raw: Dict[str, Any]):
        super().__init__(raw)
        self.scenario: str = raw["scenario"]
        self.mode: str = raw.get("mode", "step")
        self.best: Optional[Union[Configuration, ServingPoint]] = None
        if raw.get("best"):
            self.best = (ServingPoint.from_json(raw["best"]) if self.mode == "serve"
                         else Configuration.from_json(raw["best"]))
        self.parallelism: List[Dict[str, Any]] = list(raw.get("parallelism", []))
        self.hardware: List[Dict[str, Any]] = list(raw.get("hardware", []))

    def _rows(self, which: str) -> List[Dict[str, Any]]:
        if which == "hardware":
            return [_flatten(r) for r in self.hardware]
        return [{"knob": s["knob"], "baseline": s.get("baseline"), **_flatten(v)}
                for s in self.parallelism for v in s.get("values", [])]


class ExploreResult(_Document):
    """Scenario.explore(): `tessera explore --json`'s document. `points`: every hardware point
    (its `hardware` values, and its best configuration or, on a serve scenario, its aggregated
    and disaggregated answers); `axes`; `pareto`; `ranking` (serve); `hardware_sensitivity`."""

    TABLES = ("points", "hardware_sensitivity", "ranking")

    def __init__(self, raw: Dict[str, Any]):
        super().__init__(raw)
        self.scenario: str = raw["scenario"]
        self.mode: str = raw.get("mode", "step")
        self.axes: List[Dict[str, Any]] = list(raw.get("axes", []))
        self.points: List[Dict[str, Any]] = list(raw.get("points", []))
        self.pareto: List[Any] = list(raw.get("pareto", []))
        self.ranking: List[Any] = list(raw.get("ranking", []))
        self.hardware_sensitivity: List[Dict[str, Any]] = list(raw.get("hardware_sensitivity", []))

    def _rows(self, which: str) -> List[Dict[str, Any]]:
        rows = getattr(self, which)
        return [_flatten(r) if isinstance(r, dict) else {"value": r} for r in rows]


@dataclass(frozen=True)
class ModelValidation:
    """One latency model's part of validate_data(): its rows (measured, predicted, ape), the
    rows it could not map (with the reason), its summary (overall, by source), its serving part."""

    latency: str
    rows: List[Dict[str, Any]]
    unmapped: List[Dict[str, Any]]
    summary: Dict[str, Any]
    serving: Optional[Dict[str, Any]]

    @property
    def median_ape(self) -> float:
        return _nan(self.summary["overall"]["median_ape"])


class ValidationResult(_Document):
    """tessera.validate_data(): `tessera validate-data --json`'s document (one model's, or
    `models` of several), typed: `models` a list of ModelValidation, one per latency model.
    Tables: `rows` (one per model x mapped row, with `latency`), `unmapped`, `summary` (one per
    model x source, and the model's `overall`)."""

    TABLES = ("rows", "unmapped", "summary")

    def __init__(self, raw: Dict[str, Any]):
        super().__init__(raw)
        docs = raw["models"] if "models" in raw else [raw]
        self.models: List[ModelValidation] = [
            ModelValidation(latency=m["latency"], rows=list(m["rows"]), unmapped=list(m["unmapped"]),
                            summary=dict(m["summary"]), serving=m.get("serving")) for m in docs]

    def model(self, latency: str) -> ModelValidation:
        """The part of latency model `latency`."""
        for m in self.models:
            if m.latency == latency:
                return m
        raise KeyError(latency)

    def _rows(self, which: str) -> List[Dict[str, Any]]:
        out: List[Dict[str, Any]] = []
        for m in self.models:
            if which == "summary":
                out.append({"latency": m.latency, "source": "overall", "label": "overall",
                            **m.summary["overall"]})
                out.extend({"latency": m.latency, "source": src, **st} for src, st in m.summary["by_source"].items())
            else:
                out.extend({"latency": m.latency, **_flatten(r)} for r in getattr(m, which))
        return out

    def __repr__(self) -> str:
        return f"<tessera.ValidationResult {', '.join(m.latency for m in self.models)}: tables {', '.join(self.TABLES)}>"
