// _Scenario.run and .explain: the studies `tessera run` and `tessera explain` run, returning the
// documents their --json writes (studies/entries/run_study.hpp, studies/entries/explain_entry.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/entries/explain_entry.hpp"
#include "studies/entries/run_study.hpp"
#include "studies/plugin_isolation.hpp"
#include "tessera/error.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object run(const ScenarioHandle& h, std::optional<unsigned> threads, std::optional<std::size_t> top,
               py::object progress, const std::string& isolate) {
  require_mode(h, false, "Scenario.serve()");
  studies::RunOptions ro;
  ro.threads = thread_count(threads);
  ro.top = top;
  Interruptible guard(std::move(progress));
  ro.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  ro.points = true;  // the CLI's --json has them too
  ro.document = true;
  // Isolated: the whole study in a `tessera run` worker (whole_worker.hpp), so that this process
  // never creates the plugins: one that dies there is a PluginError here, and the interpreter goes on.
  std::vector<std::string> arguments;
  if (threads) arguments.insert(arguments.end(), {"--threads", std::to_string(*threads)});
  if (top) arguments.insert(arguments.end(), {"--top", std::to_string(*top)});
  const ResultsFile results;
  studies::StudyWorkers workers = whole_study_workers("run", h, isolate, arguments, results, guard);
  studies::RunResult result;
  if (auto document = study_here_or_in_worker(workers, results, guard, [&](studies::StudyWorkers& w) {
        w.before_session(h.scenario(), h.added_plugins());
        const studies::RunStudy plan(h);
        ro.executor = w.executor();  // MPI ranks when launched by mpirun; else null (threads)
        result = plan.compute(ro);
      }))
    return to_python(*document);
  return to_python(result.document);
}

py::object explain(const ScenarioHandle& h, const std::string& config_text, const std::string& isolate) {
  require_mode(h, false, "Scenario.serve()");
  // With an added plugin, in a `tessera explain` worker (whole_worker.hpp).
  Interruptible guard{py::none()};
  const ResultsFile results;
  studies::StudyWorkers workers =
      whole_study_workers("explain", h, isolate, {"--config", config_text}, results, guard);
  std::optional<studies::ExplainEntry> entry;
  std::optional<studies::ExplainResult> result;
  if (auto document = study_here_or_in_worker(workers, results, guard, [&](auto& w) {
        w.before_session(h.scenario(), h.added_plugins());
        entry.emplace(h);
        result.emplace(entry->compute(config_text));
      }))
    return to_python(*document);
  if (const std::string invalid = entry->invalid_reason(*result); !invalid.empty()) throw InputError(invalid);
  return to_python(entry->document(*result));
}

}  // namespace

void bind_run(ScenarioClass& c) {
  c.def("_run", &run, py::arg("threads") = py::none(), py::arg("top") = py::none(),
        py::arg("progress") = py::none(), py::arg("isolate") = "auto")
      .def("_explain", &explain, py::arg("config"), py::arg("isolate") = "auto");
}

}  // namespace tessera::python
