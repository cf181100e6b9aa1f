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

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object compare(const ScenarioHandle& h, const std::vector<std::string>& latency,
                   std::optional<unsigned> threads, py::object progress) {
  require_mode(h, false, "Scenario.serve()");
  Scenario edited = h.scenario();
  studies::choose_latency_models(edited, latency);
  const ScenarioHandle study(std::move(edited), python_options(h.plugin_paths()));
  const studies::CompareEntry entry(study);  // one session per latency model
  studies::CompareEntryOptions co;
  co.threads = thread_count(threads);
  Interruptible guard(std::move(progress));
  co.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  co.document = true;
  std::optional<studies::CompareStudyResult> result;
  guard.run([&] { result.emplace(entry.compute(co)); });
  return to_python(result->document);
}

}  // namespace

void bind_compare(ScenarioClass& c) {
  c.def("_compare", &compare, py::arg("latency"), py::arg("threads") = py::none(),
        py::arg("progress") = py::none());
}

}  // namespace tessera::python
