// _Scenario._sensitivity: the study `tessera sensitivity` runs (analysis/sensitivity.hpp:
// one-knob parallelism sweeps and hardware elasticities), returning the document its --json
// writes (report/sensitivity_report.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "analysis/sensitivity.hpp"
#include "bindings.hpp"
#include "eval/search_driver.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "report/sensitivity_report.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object sensitivity(const ScenarioHandle& h, bool parallelism, bool hardware,
                       std::optional<unsigned> threads, py::object progress) {
  require_mode(h, false, "Scenario.serve()");
  if (!parallelism && !hardware) parallelism = hardware = true;
  const auto strategy = h.registry().create_search(h.scenario().plugins.search);
  SearchOptions so;
  so.threads = thread_count(threads);
  so.top = 1;
  Interruptible guard(std::move(progress));
  so.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  std::optional<SensitivityStudy> result;
  guard.run([&] { result.emplace(sensitivity_study(h.session(), *strategy, parallelism, hardware, so)); });
  return to_python(with_provenance(sensitivity_json(h.session(), *result), h.registry()));
}

}  // namespace

void bind_sensitivity(ScenarioClass& c) {
  c.def("_sensitivity", &sensitivity, py::arg("parallelism"), py::arg("hardware"),
        py::arg("threads") = py::none(), py::arg("progress") = py::none());
}

}  // namespace tessera::python
