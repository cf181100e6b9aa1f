// _Scenario.evaluate: many configurations at once, columnar (NumPy arrays of the knobs in, NumPy
// columns of the results out), through its façade entry (studies/entries/evaluate_entry.hpp: the
// engine's BatchEvaluator; each row's numbers those `run` reports), the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "studies/entries/evaluate_entry.hpp"
#include "studies/entries/evaluated_batch.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/layout.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

using IntColumn = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

// The knobs a batch may give, in ParallelConfig order; a missing one keeps its default.
constexpr const auto& kKnobs = kParallelKnobs;

void set_knob(ParallelConfig& c, std::size_t knob, std::int32_t v) {
  switch (knob) {
    case 0:
      c.cp = v;
      break;
    case 1:
      c.tp = v;
      break;
    case 2:
      c.pp = v;
      break;
    case 3:
      c.dp = v;
      break;
    case 4:
      c.ep = v;
      break;
    case 5:
      c.kv_shard_mode = static_cast<KvShardMode>(v);
      break;
    case 6:
      c.ffn_shard_scope = static_cast<FfnShardScope>(v);
      break;
    case 7:
      c.tp_placement = static_cast<std::int8_t>(v);
      break;
    case 8:
      c.cp_placement = static_cast<std::int8_t>(v);
      break;
    default:
      c.cp_ring_variant = static_cast<CpRingVariant>(v);
      break;
  }
}

// The codes an enumerated knob may take (the enum's size), and placement levels the machine has.
std::int32_t knob_limit(std::size_t knob, const MachineSpec& m) {
  switch (knob) {
    case 5:
      return 2;
    case 6:
      return 3;
    case 7:
    case 8:
      return static_cast<std::int32_t>(m.levels.size()) + 1;
    case 9:
      return 3;
    default:
      return INT32_MAX;
  }
}

// The batch's configurations from the knob columns (validated, canonicalised when asked), read
// against the scenario's machine and model (no plugin needed).
std::vector<ParallelConfig> batch_configs(const ScenarioHandle& h, const py::dict& knobs, std::size_t n,
                                          bool canonical) {
  const MachineSpec& machine = h.scenario().machine;
  std::vector<ParallelConfig> configs(n);
  for (std::size_t k = 0; k < kKnobs.size(); ++k) {
    if (!knobs.contains(kKnobs[k])) continue;
    const IntColumn col = knobs[kKnobs[k]].cast<IntColumn>();
    if (col.ndim() != 1 || static_cast<std::size_t>(col.shape(0)) != n)
      throw InputError(std::string("evaluate: column '") + kKnobs[k] + "' has " + std::to_string(col.size()) +
                       " values, expected " + std::to_string(n));
    const std::int32_t* v = col.data();
    const std::int32_t limit = knob_limit(k, machine);
    for (std::size_t i = 0; i < n; ++i) {
      if (v[i] < (k < 5 ? 1 : 0) || v[i] >= limit)
        throw InputError(std::string("evaluate: row ") + std::to_string(i) + ": " + kKnobs[k] + " = " +
                         std::to_string(v[i]) + " is out of range");
      set_knob(configs[i], k, v[i]);
    }
  }
  if (canonical)
    for (auto& c : configs) c = canonicalize(h.scenario().model, c);
  return configs;
}

// The result columns of `n` rows, `objectives` their objective columns' names, in `out`; where
// each row goes in `cols`.
studies::EvaluateColumns result_columns(std::size_t n, const std::vector<std::string>& objectives,
                                        py::dict& out) {
  studies::EvaluateColumns cols;
  for (std::size_t d = 0; d < cols.numbers.size(); ++d) {
    py::array_t<double> a(static_cast<py::ssize_t>(n));
    cols.numbers[d] = a.mutable_data();
    out[studies::evaluate_number_columns()[d]] = a;
  }
  for (const std::string& name : objectives) {
    py::array_t<double> a(static_cast<py::ssize_t>(n));
    cols.objectives.push_back(a.mutable_data());
    out[py::str(name)] = a;
  }
  py::array_t<std::int64_t> pes(static_cast<py::ssize_t>(n));
  py::array_t<bool> valid(static_cast<py::ssize_t>(n)), fits(static_cast<py::ssize_t>(n)),
      feasible(static_cast<py::ssize_t>(n));
  cols.pes = pes.mutable_data();
  cols.valid = valid.mutable_data();
  cols.fits_memory = fits.mutable_data();
  cols.feasible = feasible.mutable_data();
  out["pes"] = pes;
  out["valid"] = valid;
  out["fits_memory"] = fits;
  out["feasible"] = feasible;
  return cols;
}

// `tessera evaluate-batch` in an isolated worker (app/evaluate_batch_command.cpp) with `arguments`
// (`--batch FILE`, `--configurations`): the bytes it wrote.
std::string in_worker(const ScenarioHandle& h, std::vector<std::string> arguments,
                      std::optional<unsigned> threads, Interruptible& guard) {
  if (threads) arguments.insert(arguments.end(), {"--threads", std::to_string(*threads)});
  arguments.push_back("-q");
  const ResultsFile results;
  studies::StudyWorkers workers =
      guarded_workers(studies::whole_worker_command("evaluate-batch", h.options(), studies::Isolation::on,
                                                    arguments, results.fd()),
                      guard);
  std::optional<std::string> bytes = ran_here_or_in_worker(
      workers, results, guard,
      [&](studies::StudyWorkers& w) { w.before_session(h.scenario(), h.added_plugins()); });
  if (!bytes) throw Error("evaluate: the worker process did not run");
  return std::move(*bytes);
}

py::dict evaluate(const ScenarioHandle& h, const py::dict& knobs, std::size_t n, bool canonical,
                  std::optional<unsigned> threads, py::object progress, const std::string& isolate) {
  require_mode(h, false, "Scenario.serve()");
  const std::vector<ParallelConfig> configs = batch_configs(h, knobs, n, canonical);
  Interruptible guard(std::move(progress));
  py::dict out;
  // With a plugin from outside the shipped folder, in a `tessera evaluate-batch` worker: this
  // interpreter never creates the plugin (whole_worker.hpp).
  if (studies::runs_isolated(isolation_of(isolate), h.added_plugins())) {
    const TemporaryFolder folder;
    const std::string path = folder.path() + "/batch.bin";
    {
      std::ofstream file(path, std::ios::binary);
      file << studies::save_configs(configs);
      file.close();
      if (!file)
        throw Error("evaluate: cannot write the batch for its worker process (" + path +
                    "): is its folder full?");
    }
    const studies::EvaluatedBatch batch =
        studies::EvaluatedBatch::load(in_worker(h, {"--batch", path}, threads, guard));
    if (batch.rows() != n) throw Error("evaluate: the worker process evaluated another batch");
    batch.copy_to(result_columns(n, batch.objective_names(), out));
    return out;
  }
  const Session& session = h.session();
  const studies::EvaluateColumns cols = result_columns(n, studies::objective_columns(session), out);
  guard.run([&] {
    studies::evaluate_batch(session, configs, thread_count(threads), cols,
                            [&](std::size_t done) { guard.poll_every(done, n, "configurations", 8192); });
  });
  return out;
}

// The scenario sweep's valid canonical configurations, in the space's order, as int32 columns
// (listed by an isolated worker as evaluate() is).
py::dict configurations(const ScenarioHandle& h, const std::string& isolate) {
  std::vector<ParallelConfig> configs;
  if (studies::runs_isolated(isolation_of(isolate), h.added_plugins())) {
    Interruptible guard{py::none()};
    configs = studies::load_configs(in_worker(h, {"--configurations"}, std::nullopt, guard));
  } else {
    configs = studies::sweep_configurations(h.session());
  }
  const std::size_t n = configs.size();
  py::dict out;
  std::array<std::int32_t*, kKnobs.size()> cols{};
  for (std::size_t k = 0; k < kKnobs.size(); ++k) {
    py::array_t<std::int32_t> a(static_cast<py::ssize_t>(n));
    cols[k] = a.mutable_data();
    out[kKnobs[k]] = a;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const ParallelConfig& c = configs[i];
    const std::array<std::int32_t, kKnobs.size()> v = {c.cp,
                                                       c.tp,
                                                       c.pp,
                                                       c.dp,
                                                       c.ep,
                                                       static_cast<std::int32_t>(c.kv_shard_mode),
                                                       static_cast<std::int32_t>(c.ffn_shard_scope),
                                                       c.tp_placement,
                                                       c.cp_placement,
                                                       static_cast<std::int32_t>(c.cp_ring_variant)};
    for (std::size_t k = 0; k < kKnobs.size(); ++k) cols[k][i] = v[k];
  }
  return out;
}

}  // namespace

void bind_evaluate(ScenarioClass& c) {
  c.def("_evaluate", &evaluate, py::arg("knobs"), py::arg("n"), py::arg("canonical") = true,
        py::arg("threads") = py::none(), py::arg("progress") = py::none(), py::arg("isolate") = "auto")
      .def("_configurations", &configurations, py::arg("isolate") = "auto");
}

}  // namespace tessera::python
