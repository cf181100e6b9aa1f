// _Scenario._compare: the comparison `tessera compare` runs (analysis/compare.hpp) over the
// named latency models, returning the document its --json writes (report/compare_report.hpp).
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "analysis/compare.hpp"
#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "report/compare_report.hpp"
#include "scenario/latency_choices.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object compare(const ScenarioHandle& h, const std::vector<std::string>& latency,
                   std::optional<unsigned> threads, py::object progress) {
  require_mode(h, false, "Scenario.serve()");
  Scenario edited = h.scenario();
  edited.plugins.latency = latency_choices(edited, latency, {"<command line>", 0, 0});
  const ScenarioHandle study(std::move(edited), python_options(h.plugin_paths()));
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<const Session*> ptrs{&study.session()};
  for (std::size_t i = 1; i < study.scenario().plugins.latency.size(); ++i) {
    sessions.push_back(std::make_unique<Session>(study.scenario(), study.registry(), i));
    ptrs.push_back(sessions.back().get());
  }
  CompareOptions co;
  co.threads = thread_count(threads);
  Interruptible guard(std::move(progress));
  co.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  std::optional<CompareResult> result;
  guard.run([&] { result.emplace(compare_models(ptrs, co)); });
  return to_python(with_provenance(compare_json(*result, *ptrs[0]), study.registry()));
}

}  // namespace

void bind_compare(ScenarioClass& c) {
  c.def("_compare", &compare, py::arg("latency"), py::arg("threads") = py::none(),
        py::arg("progress") = py::none());
}

}  // namespace tessera::python
