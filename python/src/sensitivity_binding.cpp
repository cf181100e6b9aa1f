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

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object sensitivity(const ScenarioHandle& h, bool parallelism, bool hardware,
                       std::optional<unsigned> threads, py::object progress) {
  require_mode(h, false, "Scenario.serve()");
  if (!parallelism && !hardware) parallelism = hardware = true;
  const studies::SensitivityEntry entry(h);  // the scenario's search plugin
  Interruptible guard(std::move(progress));
  const studies::SensitivityOptions so{
      parallelism, hardware, thread_count(threads),
      [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); }};
  std::optional<SensitivityStudy> result;
  guard.run([&] { result.emplace(entry.compute(so)); });
  return to_python(entry.document(*result, so));
}

}  // namespace

void bind_sensitivity(ScenarioClass& c) {
  c.def("_sensitivity", &sensitivity, py::arg("parallelism"), py::arg("hardware"),
        py::arg("threads") = py::none(), py::arg("progress") = py::none());
}

}  // namespace tessera::python
