"""Tessera in Python: the analytical LLM-inference simulator's engine in-process.

    import tessera
    s = tessera.Scenario.load("scenarios/llama3.1-70b-decode-128k.yaml", set={"workload.batch": 8})
    r = s.run()
    r.best.config, r.best.latency_s, r.to_pandas()

The module calls the same framework library as the `tessera` executable and loads the same
plugins (docs/python.md)."""
from __future__ import annotations

import collections.abc
import json
import numbers
import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

import numpy as _np

from . import _tessera
from ._plain import input_error as _input_error
from ._plain import plain as _plain
from .errors import Diagnostic, Error, InputError, PluginError
from .results import (KNOBS, Columns, CompareResult, Configuration, Counts, DisaggPair, DisaggPool,
                      DisaggregatedResult, ExploreResult, Explanation, ModelValidation, RunResult,
                      SensitivityResult, ServeResult, ServingPoint, ValidationResult, Simulation, LatencyStats,
                      Capacity, Finalist)

__version__: str = _tessera.__version__
__all__ = ["Scenario", "compare", "validate_data", "plugins", "plugin_search_path", "mpi_rank", "InputError", "PluginError",
           "Error", "Diagnostic", "RunResult", "Configuration", "Counts", "Explanation", "Columns", "ServeResult",
           "ServingPoint", "DisaggregatedResult", "DisaggPair", "DisaggPool", "CompareResult", "SensitivityResult",
           "ExploreResult", "ValidationResult",
           "ModelValidation", "Simulation", "LatencyStats", "Capacity", "Finalist", "KNOBS", "CONFIG_DTYPE"]

ProgressCallback = Callable[[int, int, str], None]

# The dtype of a structured batch for Scenario.evaluate(): every knob an int32; the enumerated
# ones by code (kv_shard_mode: 0 split, 1 replicate; ffn_shard_scope: 0 TP, 1 TP+CP, 2 TP+CP+DP;
# cp_ring_variant: 0 kv, 1 qoml, 2 tree), placements by level index (0 = PEs of one unit).
CONFIG_DTYPE = _np.dtype([(k, _np.int32) for k in KNOBS])


def _yaml_value(v: Any, key: str) -> str:
    """A Python value as the text `--set KEY=VALUE` takes (the YAML value grammar)."""
    v = _plain(v, key, "<command line>")
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return v
    return json.dumps(v)  # lists and mappings: JSON is YAML


def _set_list(set: Optional[Mapping[str, Any]]) -> List[str]:
    if set is None:
        return []
    if not isinstance(set, Mapping):
        raise InputError(f"set: expected a dict {{dotted.path: value}}, found {type(set).__name__}")
    for k in set:
        if not isinstance(k, str) or not k:
            raise InputError(f"set: keys are dotted paths such as 'workload.batch', found {k!r}")
    return [f"{k}={_yaml_value(v, k)}" for k, v in set.items()]


def _isolation(isolate: Optional[bool]) -> str:
    """Scenario.run / .explore's `isolate`: None (automatic), True or False."""
    if isolate is not None and not isinstance(isolate, bool):
        raise TypeError("isolate must be True, False or None")
    return "auto" if isolate is None else ("on" if isolate else "off")


def _count(name: str, v: Any, minimum: int) -> Optional[int]:
    """threads=, top=, max_pes=: None or a whole number >= minimum (InputError otherwise)."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or int(v) < minimum:
        raise InputError(f"{name}: expected an integer >= {minimum} or None, found {v!r}")
    return int(v)


def _callback(progress: Any) -> Any:
    if progress is not None and not callable(progress):
        raise TypeError(f"progress: expected a callable progress(done, total, unit) or None, found {progress!r}")
    return progress


def _put_part(r: Dict[str, Any], kind: str, value: Any) -> None:
    """Puts a model or machine into a load recipe: a file path as --model/--machine takes it, a
    name or a mapping as `--set model=...` does, a Hugging Face config.json dict as its text."""
    r[kind] = ""
    if kind == "model":
        r["model_hf"] = ""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, str) and value:
        if "/" in value or value.endswith((".yaml", ".yml", ".json")):
            r[kind] = os.path.abspath(value)  # a file, as --model / --machine take it
        else:
            r["set"].append(f"{kind}={value}")  # a name, as `model: NAME` in the file
    elif isinstance(value, Mapping):
        tree = _plain(value, kind, "<dict>")
        if kind == "model" and _is_hf_config(tree):
            r["model_hf"] = json.dumps(tree)
        else:
            r["set"].append(f"{kind}={json.dumps(tree)}")
    else:
        raise _input_error("<command line>", kind, f"expected a {kind} name, a file path or a mapping, "
                           f"found {value!r:.60}")


def _is_hf_config(d: Mapping[str, Any]) -> bool:
    """A Hugging Face config.json's content (not a Tessera model mapping)."""
    return ("model_type" in d or "architectures" in d) and "layers" not in d and "hf_config" not in d


def _paths(plugin_path: Union[None, str, Sequence[str]]) -> List[str]:
    if plugin_path is None:
        return []
    try:
        if isinstance(plugin_path, (str, os.PathLike)):
            return [os.fspath(plugin_path)]
        return [os.fspath(p) for p in plugin_path]
    except TypeError:
        raise InputError(f"plugin_path: expected a folder or a list of folders, found {plugin_path!r}") from None


def _call_text(name: str, kw: Mapping[str, Any], first: Optional[str] = None, first_text: str = "") -> str:
    """`name(first, k=v, ...)` with the arguments given (None left out), as Python writes them;
    `first_text` a first argument written as is (a Scenario's own call)."""
    args = (([first_text] if first_text else []) + ([repr(first)] if first is not None else []) +
            [f"{k}={v!r}" for k, v in kw.items() if v is not None])
    return f"{name}({', '.join(args)})"


def _config_text(config: Union[str, Mapping[str, Any], Configuration]) -> str:
    if isinstance(config, Configuration):
        return config.config_text
    if isinstance(config, str):
        return config
    if isinstance(config, Mapping):
        return ",".join(f"{k}={_plain(v, k, '<command line>')}" for k, v in config.items())
    raise InputError(f"config: expected a Configuration, a dict of knobs or 'cp=1,tp=8,...', found {config!r:.60}")


class Scenario:
    """A scenario loaded by the framework's loader, its plugins created (a session)."""

    def __init__(self, handle: "_tessera._Scenario", recipe: Optional[Dict[str, Any]] = None):
        self._h = handle
        self._recipe = recipe  # how it was loaded: with_model() / with_machine() load it again

    @classmethod
    def _from_recipe(cls, r: Dict[str, Any]) -> "Scenario":
        if r["text"] is not None:
            h = _tessera._Scenario._from_text(r["text"], "<dict>", r["base_dir"], r["set"], r["plugin_path"],
                                              r["model"], r["machine"], r["model_hf"])
        else:
            h = _tessera._Scenario._load(r["path"], r["set"], r["plugin_path"], r["model"], r["machine"],
                                         r["model_hf"])
        return cls(h, r)

    @classmethod
    def load(cls, path: Union[str, os.PathLike, None] = None, set: Optional[Mapping[str, Any]] = None, *,
             model: Optional[str] = None, machine: Optional[str] = None,
             plugin_path: Union[None, str, Sequence[str]] = None) -> "Scenario":
        """Loads a scenario file (None: the default scenario). `set` overrides values by dotted
        path, as `--set` does ({"workload.batch": 8}); `model` / `machine` replace the scenario's,
        in any form with_model / with_machine take (a name, a file, a mapping, a Hugging Face
        config.json path or dict); `plugin_path` folders are searched before
        TESSERA_PLUGIN_PATH and the module's own plugins. Raises InputError."""
        try:
            p = os.fspath(path) if path is not None else _tessera._Scenario._default_path()
        except TypeError:
            raise InputError(f"path: expected a scenario file path or None, found {path!r:.60}") from None
        r = dict(text=None, path=p, base_dir="", set=_set_list(set), plugin_path=_paths(plugin_path),
                 model="", machine="", model_hf="")
        if model is not None:
            _put_part(r, "model", model)
        if machine is not None:
            _put_part(r, "machine", machine)
        return cls._from_recipe(r)

    @classmethod
    def from_dict(cls, scenario: Mapping[str, Any], set: Optional[Mapping[str, Any]] = None, *,
                  base_dir: Union[str, os.PathLike] = ".",
                  plugin_path: Union[None, str, Sequence[str]] = None) -> "Scenario":
        """A scenario given as a dict (the YAML file's content); errors name `<dict>` in place of
        a file. Relative file paths inside resolve against `base_dir`."""
        if not isinstance(scenario, Mapping):
            raise _input_error("<dict>", "<root>", f"expected a mapping (the scenario), found {type(scenario).__name__}")
        text = json.dumps(_plain(scenario, "", "<dict>"))
        r = dict(text=text, path="", base_dir=os.fspath(base_dir), set=_set_list(set),
                 plugin_path=_paths(plugin_path), model="", machine="", model_hf="")
        return cls._from_recipe(r)

    def with_model(self, model: Union[str, os.PathLike, Mapping[str, Any]]) -> "Scenario":
        """The same scenario (its file or dict, its set= overrides) with another model: a name
        from models/ ("llama3.1-8b"), a model file (.yaml) or a Hugging Face config.json path, a
        Tessera model mapping ({"name": ..., "layers": ...}), or a Hugging Face config.json's
        content as a dict (read by the framework's config.json reader: an unsupported
        model_type or a missing dimension raises InputError naming it)."""
        return self._with("model", model)

    def with_machine(self, machine: Union[str, os.PathLike, Mapping[str, Any]]) -> "Scenario":
        """The same scenario with another machine (the one of `machine:`; pools with machines of
        their own keep them): a name from machines/ ("dgx-h100"), a machine file, or a mapping."""
        return self._with("machine", machine)

    def for_max_throughput(self) -> "Scenario":
        """The same scenario asking `tessera serve --max-throughput`'s question: no SLO, the batch
        grid 1..4096 (what the engine's KV rule admits, under `framework:`), tokens/s/PE first;
        then `.serve()`. Its overrides follow the scenario's own set= ones."""
        if self._recipe is None:
            raise Error("for_max_throughput: this scenario was not loaded by Scenario.load or from_dict")
        r = dict(self._recipe, set=list(self._recipe["set"]) + list(_tessera._Scenario._max_throughput_overrides()))
        return Scenario._from_recipe(r)

    def _with(self, kind: str, value: Any) -> "Scenario":
        if self._recipe is None:
            raise Error(f"with_{kind}: this scenario was not loaded by Scenario.load or from_dict")
        r = dict(self._recipe, set=list(self._recipe["set"]))
        _put_part(r, kind, value)
        return Scenario._from_recipe(r)

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

    def _loaded_by(self) -> str:
        """How this scenario was made, as Python: the start of a result's `command`."""
        r = self._recipe
        if r is None:
            return "tessera.Scenario(<handle>)"
        s = (f"tessera.Scenario.load({r['path']!r}" if r["text"] is None
             else f"tessera.Scenario.from_dict(<dict>, base_dir={r['base_dir']!r}")
        if r["set"]:
            s += f", set={r['set']!r}"
        for k in ("model", "machine"):
            if r[k]:
                s += f", {k}={r[k]!r}"
        if r["model_hf"]:
            s += ", model=<Hugging Face config dict>"
        return s + ")"

    def _stamped(self, doc: Dict[str, Any], call: str, **kw: Any) -> Dict[str, Any]:
        """`doc` with `command`: the Python call that produced it (the CLI's documents carry
        the command line; docs/report.md)."""
        doc["command"] = "python: " + self._loaded_by() + "." + _call_text(call, kw)
        return doc

    def run(self, threads: Optional[int] = None, *, top: Optional[int] = None,
            progress: Optional[ProgressCallback] = None, isolate: Optional[bool] = None) -> RunResult:
        """Searches the parallelism sweep (`tessera run`): counts, best, Pareto frontier, top N.
        `threads` None = every hardware thread (the result is the same for any count). The GIL
        is released; Ctrl-C raises KeyboardInterrupt; `progress(done, total, unit)` is called
        between batches. `isolate` True computes the work units in worker processes (`tessera
        run --isolate-plugins`): a plugin that crashes, aborts, calls exit() or hangs there raises
        PluginError naming the call and this interpreter goes on; False keeps them in this
        process; None (the default) isolates when a plugin comes from outside the shipped
        plugin folder."""
        return RunResult.from_json(self._stamped(self._h._run(_count("threads", threads, 1), _count("top", top, 0),
                                                              _callback(progress), _isolation(isolate)),
                                                 "run", threads=threads, top=top, isolate=isolate))

    def serve(self, threads: Optional[int] = None, *, top: Optional[int] = None, max_pes: Optional[int] = None,
              progress: Optional[ProgressCallback] = None, requests: bool = False,
              simulate_top: Optional[int] = None, isolate: Optional[bool] = None) -> ServeResult:
        """The serving study of a `workload.mode: serve` scenario (`tessera serve`): every
        configuration x serving point against the SLO; best, closest miss, frontier, top N, and
        the disaggregated pairing when serving.disaggregated is on; with serving.requests, the best
        point simulated request by request (`.simulation`). `requests=True` (needs
        serving.requests) also keeps every simulated request (`.simulation.requests`, as `tessera
        serve --requests FILE`). `max_pes` None = the scenario's serving.max_pes, 0 = no budget.
        `simulate_top` K: the capacity of the analytical top K searched by simulation and
        re-ranked (`.capacity`, `tessera serve --simulate-top K`); None = 20 with
        serving.requests, else 0. GIL, Ctrl-C and progress as run(). `isolate` as run(), the
        whole study in one `tessera serve` worker process (progress is not reported then)."""
        return ServeResult.from_json(self._stamped(
            self._h._serve(_count("threads", threads, 1), _count("top", top, 0), _count("max_pes", max_pes, 0),
                           _callback(progress), bool(requests), _count("simulate_top", simulate_top, 0),
                           _isolation(isolate)),
            "serve", threads=threads, top=top, max_pes=max_pes, requests=True if requests else None,
            simulate_top=simulate_top, isolate=isolate))

    def sensitivity(self, *, parallelism: bool = False, hardware: bool = False, threads: Optional[int] = None,
                    progress: Optional[ProgressCallback] = None, isolate: Optional[bool] = None) -> SensitivityResult:
        """One-knob parallelism sweeps and hardware elasticities (`tessera sensitivity
        [--parallelism] [--hardware] --json`; neither = both): typed, `.raw` the CLI's document.
        `isolate` as serve()."""
        return SensitivityResult(self._stamped(
            self._h._sensitivity(bool(parallelism), bool(hardware), _count("threads", threads, 1), _callback(progress),
                                 _isolation(isolate)),
            "sensitivity", parallelism=parallelism or None, hardware=hardware or None, threads=threads,
            isolate=isolate))

    def explore(self, *, sensitivity: bool = True, threads: Optional[int] = None,
                progress: Optional[ProgressCallback] = None, isolate: Optional[bool] = None) -> ExploreResult:
        """The joint hardware x parallelism exploration of the scenario's sweep.hardware
        (`tessera explore --json`; sensitivity=False = --no-sensitivity); on a serve scenario the
        serving study at every hardware point. Typed, `.raw` the CLI's document. `isolate` as
        run(): a step scenario's hardware points in worker processes, a serve scenario's whole
        study in one."""
        return ExploreResult(self._stamped(self._h._explore(bool(sensitivity), _count("threads", threads, 1),
                                                            _callback(progress), _isolation(isolate)),
                                           "explore", sensitivity=None if sensitivity else False, threads=threads,
                                           isolate=isolate))

    def explain(self, config: Union[str, Mapping[str, Any], Configuration], *,
                isolate: Optional[bool] = None) -> Explanation:
        """The stages and totals of one configuration (`tessera explain --config`): a
        Configuration, a dict of knobs, or "cp=8,tp=4,..." (canonicalised first). `isolate` as
        serve()."""
        j = self._stamped(self._h._explain(_config_text(config), _isolation(isolate)), "explain",
                          config=_config_text(config), isolate=isolate)
        return Explanation(config=j["config"], stages=list(j.get("stages", [])), raw=j)

    def configurations(self, *, isolate: Optional[bool] = None) -> _np.ndarray:
        """The sweep's valid canonical configurations, in the space's order, as a structured
        array of dtype CONFIG_DTYPE (the batch an exhaustive run evaluates). `isolate` as
        evaluate()."""
        cols = self._h._configurations(_isolation(isolate))
        out = _np.empty(len(cols["cp"]), dtype=CONFIG_DTYPE)
        for k in KNOBS:
            out[k] = cols[k]
        return out

    def evaluate(self, batch: Union[_np.ndarray, Mapping[str, Iterable[int]]], *, threads: Optional[int] = None,
                 canonical: bool = True, progress: Optional[ProgressCallback] = None,
                 isolate: Optional[bool] = None) -> Columns:
        """Evaluates many configurations at once: `batch` a NumPy structured array (fields from
        KNOBS, e.g. dtype CONFIG_DTYPE; a missing knob keeps its default) or a dict of integer
        columns. Returns NumPy columns: the knobs given, then latency_s, throughput_tok_s, ...,
        objective_<key>, pes, valid, fits_memory, feasible (NaN for an invalid row). Each row as
        run() reports that configuration; `canonical` canonicalises each row first. `isolate` as
        run(): with a plugin from outside the shipped folder the batch is evaluated in a `tessera`
        worker process (its columns copied back), so a plugin that crashes raises PluginError."""
        if not isinstance(batch, (_np.ndarray, Mapping)) or (isinstance(batch, _np.ndarray) and not batch.dtype.names):
            raise InputError(f"evaluate: expected a structured array (CONFIG_DTYPE) or a dict of columns, found "
                             f"{type(batch).__name__}")
        if isinstance(batch, _np.ndarray):
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
        out.update(self._h._evaluate(cols, n, bool(canonical), _count("threads", threads, 1), _callback(progress),
                                     _isolation(isolate)))
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
            progress: Optional[ProgressCallback] = None, isolate: Optional[bool] = None) -> CompareResult:
    """Compares latency models on the scenario's grid (`tessera compare --latency A,B --json`):
    `latency` the models' names (None: the scenario's plugins.latency; a model the scenario
    configures keeps its parameters). Typed (`.optima`: each model's optimum and its rank under
    the others; `.kendall`; `.winner_changes`), `.raw` the CLI's document. `isolate` as
    Scenario.serve(): with a model from outside the shipped plugin folder, the whole comparison in
    one `tessera compare` worker process."""
    doc = scenario._h._compare(_names("latency", latency), _count("threads", threads, 1), _callback(progress),
                               _isolation(isolate))
    doc["command"] = "python: tessera." + _call_text("compare", dict(latency=latency, threads=threads,
                                                                     isolate=isolate),
                                                     first_text=scenario._loaded_by())
    return CompareResult(doc)


def _names(what: str, names: Union[None, str, Sequence[str]]) -> List[str]:
    if names is None:
        return []
    if isinstance(names, str):
        names = names.split(",")
    if not isinstance(names, collections.abc.Sequence) or not all(isinstance(n, str) for n in names):
        raise InputError(f"{what}: expected plugin names, found {names!r:.60}")
    return [n.strip() for n in names if n.strip()]


def validate_data(csv: Union[str, os.PathLike], latency: Union[None, str, Sequence[str]] = None, *,
                  aliases: Union[None, str, os.PathLike] = None, latency_only: bool = False,
                  serving: Optional[str] = None, plugin_path: Union[None, str, Sequence[str]] = None,
                  progress: Optional[ProgressCallback] = None, simulate: bool = False,
                  isolate: Optional[bool] = None) -> ValidationResult:
    """Predicts published measurements (`tessera validate-data CSV --latency A,B --json`): every
    row of `csv` mapped through the alias table (`aliases`, default data/aliases.yaml) and
    predicted by each latency model (None: every latency plugin found). `latency_only` keeps the
    latency metrics; `serving` the serving model of the serving rows ("none" skips them; None the
    CLI's default). `simulate` also predicts the rows measured at a stated concurrency through
    the request simulator (`--simulate`: `.raw["simulated"]`, each row's `simulated`). Typed:
    `.models` (each model's rows, unmapped rows, summary); tables rows,
    unmapped, summary; `.raw` the CLI's document. `isolate` as Scenario.run(): with a latency
    model from outside the shipped folder, the whole study in one `tessera validate-data` worker."""
    try:
        path = os.fspath(csv)
    except TypeError:
        raise InputError(f"csv: expected a measurements CSV path, found {csv!r:.60}") from None
    doc = _tessera._validate_data(path, _names("latency", latency), os.fspath(aliases) if aliases else "",
                                  bool(latency_only), serving, _paths(plugin_path), _callback(progress),
                                  bool(simulate), _isolation(isolate))
    doc["command"] = "python: tessera." + _call_text("validate_data", dict(
        latency=latency, aliases=os.fspath(aliases) if aliases else None, latency_only=latency_only or None,
        serving=serving, simulate=simulate or None), first=path)
    return ValidationResult(doc)


def plugins(plugin_path: Union[None, str, Sequence[str]] = None) -> List[Dict[str, Any]]:
    """Every plugin found (as `tessera plugins --json` lists them: id, kind, name, version,
    summary, path, params with their schema). Raises PluginError when a library failed to load."""
    listed, failures, _ = _tessera._plugins(_paths(plugin_path))
    if failures:
        raise PluginError("; ".join(f"{path}: {message}" for path, message in failures))
    return listed


def mpi_rank() -> int:
    """This process's rank in the MPI job that started it (0 outside one), also before its first study.

    Started by an MPI launcher (``mpirun -np N python3 script.py``, ``srun``), the module joins
    the job at its first study, never at import; every rank computes its share of each study's
    work units and ends with the same results (docs/mpi.md). A script prints on rank 0 only with
    ``if tessera.mpi_rank() == 0: ...``.
    """
    return int(_tessera._mpi_rank())


def plugin_search_path(plugin_path: Union[None, str, Sequence[str]] = None) -> List[str]:
    """The folders searched for plugins, in order."""
    return list(_tessera._plugins(_paths(plugin_path))[2])
