// tessera.validate_data: the study `tessera validate-data` runs (analysis/accuracy/accuracy_study.hpp: each
// measured row mapped through the alias table and predicted by each latency model), returning
// the document its --json writes, through its façade entry (studies/entries/validate_data_entry.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/documents/accuracy_document.hpp"
#include "studies/entries/validate_data_entry.hpp"
#include "studies/study_context.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object validate_data(const std::string& csv, const std::vector<std::string>& latency,
                         const std::string& aliases, bool latency_only, std::optional<std::string> serving,
                         const std::vector<std::string>& plugin_path, py::object progress, bool simulate) {
  const studies::ValidateDataEntry entry(studies::shared_registry(plugin_path));
  studies::ValidateDataOptions vd;
  vd.latency = latency;
  vd.latency_only = latency_only;
  vd.aliases = aliases;
  vd.serving = serving.value_or(studies::default_validation_serving());
  vd.simulate = simulate;
  vd.who = "validate_data";
  Interruptible guard(std::move(progress));
  vd.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  const accuracy::ValidateOptions plan = entry.plan(vd);
  std::string document;
  guard.run([&] { document = accuracy::reports_json(entry.compute(csv, plan)); });
  return to_python(with_provenance(nlohmann::json::parse(document), entry.registry()));
}

}  // namespace

void bind_validate(pybind11::module_& m) {
  m.def("_validate_data", &validate_data, py::arg("csv"), py::arg("latency"), py::arg("aliases"),
        py::arg("latency_only"), py::arg("serving"), py::arg("plugin_path"), py::arg("progress") = py::none(),
        py::arg("simulate") = false);
}

}  // namespace tessera::python
