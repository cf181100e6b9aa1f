"""Typed results: each configuration a small object with its knobs (`.config`) and its numbers
in SI units; every result converts to records (a list of flat dicts) and to a pandas DataFrame."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

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
        """Flat dicts of `which`: "top", "frontier" or "best"."""
        rows = {"top": self.top, "frontier": self.frontier, "best": [self.best] if self.best else []}[which]
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
class ServeResult:
    """What Scenario.serve() found: `tessera serve --json`'s document, typed."""

    scenario: str
    counts: Dict[str, int]
    best: Optional[ServingPoint]  # within the SLO, by the first objective; None when none is
    closest_miss: Optional[ServingPoint]
    frontier: List[ServingPoint]
    top: List[ServingPoint]
    disaggregated: Optional[Dict[str, Any]]  # serving.disaggregated on: the pairing's document
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "ServeResult":
        point = lambda r: ServingPoint.from_json(r) if r else None  # noqa: E731
        return cls(scenario=j["scenario"], counts=dict(j["counts"]), best=point(j.get("best")),
                   closest_miss=point(j.get("closest_miss")),
                   frontier=[ServingPoint.from_json(r) for r in j.get("frontier", [])],
                   top=[ServingPoint.from_json(r) for r in j.get("top", [])],
                   disaggregated=j.get("disaggregated"), raw=j)

    def to_records(self, which: str = "top") -> List[Dict[str, Any]]:
        """Flat dicts of `which`: "top", "frontier" or "best"."""
        rows = {"top": self.top, "frontier": self.frontier, "best": [self.best] if self.best else []}[which]
        return [p.to_record() for p in rows]

    def to_pandas(self, which: str = "top"):
        return _frame(self.to_records(which))
