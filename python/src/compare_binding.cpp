// _Scenario._compare: the comparison `tessera compare` runs (analysis/search/compare.hpp) over the
// named latency models, returning the document its --json writes (studies/entries/compare_entry.hpp).
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/entries/compare_entry.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object compare(const ScenarioHandle& h, const std::vector<std::string>& latency,
                   std::optional<unsigned> threads, py::object progress, const std::string& isolate) {
  require_mode(h, false, "Scenario.serve()");
  Scenario edited = h.scenario();
  studies::choose_latency_models(edited, latency);
  studies::CompareEntryOptions co;
  co.threads = thread_count(threads);
  Interruptible guard(std::move(progress));
  co.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  co.document = true;
  // With an added plugin among the models, the whole study in a `tessera compare` worker
  // (whole_worker.hpp), before this process creates any of them.
  std::vector<std::string> latency_arguments;
  if (!latency.empty()) {
    std::string names;
    for (const std::string& n : latency) names += (names.empty() ? "" : ",") + n;
    latency_arguments = {"--latency", names};
  }
  std::vector<std::string> arguments = latency_arguments;
  if (threads) arguments.insert(arguments.end(), {"--threads", std::to_string(*threads)});
  const ResultsFile results;
  studies::StudyWorkers workers = whole_study_workers("compare", h, isolate, arguments, results, guard);
  std::optional<studies::CompareStudyResult> result;
  if (auto document = study_here_or_in_worker(workers, results, guard, [&](studies::StudyWorkers& w) {
        studies::ScenarioOptions options = python_options(h.plugin_paths());
        // Isolated: run whole in a worker; in this process: a `compare` worker creates the models first.
        options.before_session = [&](const Scenario& scenario, bool added) {
          w.before_session(scenario, added);
          studies::probe_plugin_setup(
              h.options(), scenario, added, [] { Interruptible::check_signals_here(); }, "compare",
              latency_arguments);
        };
        const ScenarioHandle study(std::move(edited), options);
        const studies::CompareEntry entry(study);  // one session per latency model
        co.executor = w.executor();                // MPI ranks when launched by mpirun; else null (threads)
        result.emplace(entry.compute(co));
      }))
    return to_python(*document);
  return to_python(result->document);
}

}  // namespace

void bind_compare(ScenarioClass& c) {
  c.def("_compare", &compare, py::arg("latency"), py::arg("threads") = py::none(),
        py::arg("progress") = py::none(), py::arg("isolate") = "auto");
}

}  // namespace tessera::python
