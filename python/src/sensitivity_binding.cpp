// _Scenario._sensitivity: the study `tessera sensitivity` runs (analysis/search/sensitivity.hpp:
// one-knob parallelism sweeps and hardware elasticities), returning the document its --json
// writes (studies/entries/sensitivity_entry.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/entries/sensitivity_entry.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object sensitivity(const ScenarioHandle& h, bool parallelism, bool hardware,
                       std::optional<unsigned> threads, py::object progress, const std::string& isolate) {
  if (!parallelism && !hardware) parallelism = hardware = true;
  Interruptible guard(std::move(progress));
  studies::SensitivityOptions so{parallelism, hardware, thread_count(threads),
                                 [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); }};
  // With an added plugin, the whole study in a `tessera sensitivity` worker (whole_worker.hpp).
  std::vector<std::string> arguments;
  if (parallelism) arguments.push_back("--parallelism");
  if (hardware) arguments.push_back("--hardware");
  if (threads) arguments.insert(arguments.end(), {"--threads", std::to_string(*threads)});
  const ResultsFile results;
  studies::StudyWorkers workers = whole_study_workers("sensitivity", h, isolate, arguments, results, guard);
  std::optional<studies::SensitivityEntry> entry;
  std::optional<studies::SensitivityResult> result;
  if (auto document = study_here_or_in_worker(workers, results, guard, [&](auto& w) {
        w.before_session(h.scenario(), h.added_plugins());
        entry.emplace(h);            // the scenario's search plugin
        so.executor = w.executor();  // MPI ranks when launched by mpirun; else null (threads)
        result.emplace(entry->compute(so));
      }))
    return to_python(*document);
  return to_python(entry->document(*result, so));
}

}  // namespace

void bind_sensitivity(ScenarioClass& c) {
  c.def("_sensitivity", &sensitivity, py::arg("parallelism"), py::arg("hardware"),
        py::arg("threads") = py::none(), py::arg("progress") = py::none(), py::arg("isolate") = "auto");
}

}  // namespace tessera::python
