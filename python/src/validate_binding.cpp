// tessera.validate_data: the study `tessera validate-data` runs (analysis/validation.hpp: each
// measured row mapped through the alias table and predicted by each latency model), returning
// the document its --json writes (report/validation_report.hpp).
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>

#include "analysis/validation.hpp"
#include "bindings.hpp"
#include "host/plugin_defaults.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "report/validation_report.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object validate_data(const std::string& csv, const std::vector<std::string>& latency,
                         const std::string& aliases, bool latency_only, std::optional<std::string> serving,
                         const std::vector<std::string>& plugin_path, py::object progress) {
  const auto registry = studies::shared_registry(plugin_path);
  validation::ValidateOptions vo;
  vo.latency = latency;
  if (vo.latency.empty()) vo.latency = registry->names(PluginKind::latency);
  if (vo.latency.empty()) throw Error("validate_data: no latency plugin found");
  vo.latency_only = latency_only;
  vo.aliases = aliases;
  const std::string s = serving.value_or(plugin_defaults::kValidationServing);
  vo.serving = s == "none" ? "" : s;
  // The data root (models/, machines/, data/) is the folder of the default scenarios/, as the CLI's.
  vo.data_root =
      std::filesystem::path(default_scenario_path(LoadOptions{})).parent_path().parent_path().string();
  Interruptible guard(std::move(progress));
  vo.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  std::string document;
  guard.run([&] {
    const auto rows = validation::read_measurements(csv);
    document = validation::reports_json(validation::validate_data(rows, *registry, vo));
  });
  return to_python(with_provenance(nlohmann::json::parse(document), *registry));
}

}  // namespace

void bind_validate(pybind11::module_& m) {
  m.def("_validate_data", &validate_data, py::arg("csv"), py::arg("latency"), py::arg("aliases"),
        py::arg("latency_only"), py::arg("serving"), py::arg("plugin_path"),
        py::arg("progress") = py::none());
}

}  // namespace tessera::python
