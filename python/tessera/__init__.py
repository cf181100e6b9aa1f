"""Tessera in Python: the analytical LLM-inference simulator's engine in-process.

    import tessera
    s = tessera.Scenario.load("scenarios/llama3.1-70b-decode-128k.yaml", set={"workload.batch": 8})
    r = s.run()
    r.best.config, r.best.latency_s, r.to_pandas()

The module calls the same framework library as the `tessera` executable and loads the same
plugins (docs/python.md)."""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as _np

from . import _tessera
from .errors import Diagnostic, Error, InputError, PluginError
from .results import KNOBS, Columns, Configuration, Counts, Explanation, RunResult, ServeResult, ServingPoint

__version__: str = _tessera.__version__
__all__ = ["Scenario", "compare", "plugins", "InputError", "PluginError", "Error", "Diagnostic", "RunResult",
           "Configuration", "Counts", "Explanation", "Columns", "ServeResult", "ServingPoint", "KNOBS", "CONFIG_DTYPE"]

ProgressCallback = Callable[[int, int, str], None]

# The dtype of a structured batch for Scenario.evaluate(): every knob an int32; the enumerated
# ones by code (kv_shard_mode: 0 split, 1 replicate; ffn_shard_scope: 0 TP, 1 TP+CP, 2 TP+CP+DP;
# cp_ring_variant: 0 kv, 1 qoml, 2 tree), placements by level index (0 = PEs of one unit).
CONFIG_DTYPE = _np.dtype([(k, _np.int32) for k in KNOBS])


def _yaml_value(v: Any) -> str:
    """A Python value as the text `--set KEY=VALUE` takes (the YAML value grammar)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return v
    return json.dumps(v)  # lists and mappings: JSON is YAML


def _set_list(set: Optional[Mapping[str, Any]]) -> List[str]:
    return [f"{k}={_yaml_value(v)}" for k, v in (set or {}).items()]


def _paths(plugin_path: Union[None, str, Sequence[str]]) -> List[str]:
    if plugin_path is None:
        return []
    if isinstance(plugin_path, (str, os.PathLike)):
        return [os.fspath(plugin_path)]
    return [os.fspath(p) for p in plugin_path]


def _config_text(config: Union[str, Mapping[str, Any], Configuration]) -> str:
    if isinstance(config, Configuration):
        return config.config_text
    if isinstance(config, str):
        return config
    return ",".join(f"{k}={v}" for k, v in config.items())


class Scenario:
    """A scenario loaded by the framework's loader, its plugins created (a session)."""

    def __init__(self, handle: "_tessera._Scenario"):
        self._h = handle

    @classmethod
    def load(cls, path: Union[str, os.PathLike, None] = None, set: Optional[Mapping[str, Any]] = None, *,
             model: Optional[str] = None, machine: Optional[str] = None,
             plugin_path: Union[None, str, Sequence[str]] = None) -> "Scenario":
        """Loads a scenario file (None: the default scenario). `set` overrides values by dotted
        path, as `--set` does ({"workload.batch": 8}); `model` / `machine` replace the scenario's
        (a model YAML or a Hugging Face config.json; a machine file); `plugin_path` folders are
        searched before TESSERA_PLUGIN_PATH and the module's own plugins. Raises InputError."""
        p = os.fspath(path) if path is not None else _tessera._Scenario._default_path()
        return cls(_tessera._Scenario._load(p, _set_list(set), _paths(plugin_path), model or "", machine or ""))

    @classmethod
    def from_dict(cls, scenario: Mapping[str, Any], set: Optional[Mapping[str, Any]] = None, *,
                  base_dir: Union[str, os.PathLike] = ".",
                  plugin_path: Union[None, str, Sequence[str]] = None) -> "Scenario":
        """A scenario given as a dict (the YAML file's content); errors name `<dict>` in place of
        a file. Relative file paths inside resolve against `base_dir`."""
        text = json.dumps(scenario)
        return cls(_tessera._Scenario._from_text(text, "<dict>", os.fspath(base_dir), _set_list(set),
                                                 _paths(plugin_path)))

    # What the scenario is.
    name = property(lambda self: self._h.name, doc="the scenario's name (its file's stem)")
    file = property(lambda self: self._h.file, doc="its file, or <dict>")
    mode = property(lambda self: self._h.mode, doc="decode, prefill or serve")
    model = property(lambda self: self._h.model, doc="the model's name")
    machine = property(lambda self: self._h.machine, doc="the machine's name")
    latency_model = property(lambda self: self._h.latency_model, doc="the latency plugin in use")
    objectives = property(lambda self: list(self._h.objectives), doc="the objectives' names")

    def __repr__(self) -> str:
        return f"<tessera.Scenario {self.name!r}: {self.model} on {self.machine}, {self.mode}>"

    def run(self, threads: Optional[int] = None, *, top: Optional[int] = None,
            progress: Optional[ProgressCallback] = None) -> RunResult:
        """Searches the parallelism sweep (`tessera run`): counts, best, Pareto frontier, top N.
        `threads` None = every hardware thread (the result is the same for any count). The GIL
        is released; Ctrl-C raises KeyboardInterrupt; `progress(done, total, unit)` is called
        between batches."""
        return RunResult.from_json(self._h._run(threads, top, progress))

    def serve(self, threads: Optional[int] = None, *, top: Optional[int] = None, max_pes: Optional[int] = None,
              progress: Optional[ProgressCallback] = None) -> ServeResult:
        """The serving study of a `workload.mode: serve` scenario (`tessera serve`): every
        configuration x serving point against the SLO; best, closest miss, frontier, top N, and
        the disaggregated pairing when serving.disaggregated is on. `max_pes` None = the
        scenario's serving.max_pes, 0 = no budget. GIL, Ctrl-C and progress as run()."""
        return ServeResult.from_json(self._h._serve(threads, top, max_pes, progress))

    def sensitivity(self, *, parallelism: bool = False, hardware: bool = False, threads: Optional[int] = None,
                    progress: Optional[ProgressCallback] = None) -> Dict[str, Any]:
        """One-knob parallelism sweeps and hardware elasticities (`tessera sensitivity
        [--parallelism] [--hardware] --json`; neither = both): the CLI's JSON document as a dict."""
        return self._h._sensitivity(parallelism, hardware, threads, progress)

    def explore(self, *, sensitivity: bool = True, threads: Optional[int] = None,
                progress: Optional[ProgressCallback] = None) -> Dict[str, Any]:
        """The joint hardware x parallelism exploration of the scenario's sweep.hardware
        (`tessera explore --json`; sensitivity=False = --no-sensitivity): the CLI's JSON
        document as a dict."""
        return self._h._explore(sensitivity, threads, progress)

    def explain(self, config: Union[str, Mapping[str, Any], Configuration]) -> Explanation:
        """The stages and totals of one configuration (`tessera explain --config`): a
        Configuration, a dict of knobs, or "cp=8,tp=4,..." (canonicalised first)."""
        j = self._h._explain(_config_text(config))
        return Explanation(config=j["config"], stages=list(j.get("stages", [])), raw=j)

    def configurations(self) -> _np.ndarray:
        """The sweep's valid canonical configurations, in the space's order, as a structured
        array of dtype CONFIG_DTYPE (the batch an exhaustive run evaluates)."""
        cols = self._h._configurations()
        out = _np.empty(len(cols["cp"]), dtype=CONFIG_DTYPE)
        for k in KNOBS:
            out[k] = cols[k]
        return out

    def evaluate(self, batch: Union[_np.ndarray, Mapping[str, Iterable[int]]], *, threads: Optional[int] = None,
                 canonical: bool = True, progress: Optional[ProgressCallback] = None) -> Columns:
        """Evaluates many configurations at once: `batch` a NumPy structured array (fields from
        KNOBS, e.g. dtype CONFIG_DTYPE; a missing knob keeps its default) or a dict of integer
        columns. Returns NumPy columns: the knobs given, then latency_s, throughput_tok_s, ...,
        objective_<key>, pes, valid, fits_memory, feasible (NaN for an invalid row). Each row as
        run() reports that configuration; `canonical` canonicalises each row first."""
        if isinstance(batch, _np.ndarray) and batch.dtype.names:
            names = [k for k in KNOBS if k in batch.dtype.names]
            unknown = [k for k in batch.dtype.names if k not in KNOBS]
            cols = {k: _int32_column(k, batch[k]) for k in names}
        else:
            unknown = [k for k in batch if k not in KNOBS]
            cols = {k: _int32_column(k, batch[k]) for k in KNOBS if k in batch}
        if unknown:
            raise InputError(f"evaluate: unknown column {unknown[0]!r}; columns: {', '.join(KNOBS)}")
        n = len(next(iter(cols.values()))) if cols else 0
        out = Columns(cols)
        out.update(self._h._evaluate(cols, n, canonical, threads, progress))
        return out


def _int32_column(knob: str, values: Any) -> "_np.ndarray":
    """A knob column as int32, refused (InputError naming the row) when a value is not a whole
    number within int32: a cast would wrap or truncate it into another configuration."""
    try:
        a = _np.asarray(values)
    except Exception as e:  # a ragged or otherwise unreadable column
        raise InputError(f"evaluate: column {knob!r}: {e}") from None
    if a.dtype.kind not in "iuf" and a.size:
        raise InputError(f"evaluate: column {knob!r}: expected integers, found dtype {a.dtype}")
    if a.size:
        f = a.astype(_np.float64) if a.dtype.kind == "f" else None
        bad = (~_np.isfinite(f) | (f != _np.floor(f))) if f is not None else _np.zeros(a.shape, bool)
        lo, hi = _np.iinfo(_np.int32).min, _np.iinfo(_np.int32).max
        with _np.errstate(invalid="ignore"):
            bad |= (a < lo) | (a > hi)
        if bad.any():
            i = int(_np.flatnonzero(bad)[0])
            raise InputError(f"evaluate: row {i}: {knob} = {a.flat[i]!r} is not a whole number within int32")
    return _np.ascontiguousarray(a, dtype=_np.int32)


def compare(scenario: Scenario, latency: Optional[Sequence[str]] = None, *, threads: Optional[int] = None,
            progress: Optional[ProgressCallback] = None) -> Dict[str, Any]:
    """Compares latency models on the scenario's grid (`tessera compare --latency A,B --json`):
    `latency` the models' names (None: the scenario's plugins.latency; a model the scenario
    configures keeps its parameters). Returns the CLI's JSON document as a dict: each model's
    optimum, its rank under the others, the pairwise regrets."""
    return scenario._h._compare(list(latency or []), threads, progress)


def plugins(plugin_path: Union[None, str, Sequence[str]] = None) -> List[Dict[str, Any]]:
    """Every plugin found (as `tessera plugins --json` lists them: id, kind, name, version,
    summary, path, params with their schema). Raises PluginError when a library failed to load."""
    listed, failures, _ = _tessera._plugins(_paths(plugin_path))
    if failures:
        raise PluginError("; ".join(f"{path}: {message}" for path, message in failures))
    return listed


def plugin_search_path(plugin_path: Union[None, str, Sequence[str]] = None) -> List[str]:
    """The folders searched for plugins, in order."""
    return list(_tessera._plugins(_paths(plugin_path))[2])
